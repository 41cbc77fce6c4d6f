/**
 * The mount's documents and reports from two trees, compared byte for byte: a change that only makes the
 * mount cheaper must serve the same bytes and report the same issues. Run once per tree and diff the two
 * outputs (each line a case, an option set and the SHA-256 of `JSON.stringify` of what it gives):
 *
 *   TREE=/path/to/before npx tsx bench/mount-differential.ts > before.txt
 *   TREE=/path/to/after  npx tsx bench/mount-differential.ts > after.txt
 *   diff before.txt after.txt
 *
 * TREE (default: this tree) is where `src/` is imported from; the schemas come from this tree's test
 * arbitraries (a fixed seed) and fixtures, so both runs see the same ones. Every Zod schema goes through
 * `validateMcpSchemas` under each option set (every projection served, each profile's checks, the typed and
 * format rules), alone and in one mount of them all, twice over; every converted document, and a few
 * hand-made ones holding values JSON cannot spell, through the projections and the probe directly. Nothing
 * here asserts a time.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';
import * as unions from '../test/support/unions.js';
import { deepUnionArb, discriminatedUnionArb, type Gen, genArb, rootArb } from '../test/unit/projection/arbitraries.js';
import { deepCollisionArb, shapeArb, typedRootArb, untaggedArb } from '../test/unit/projection/deep-arbitraries.js';
import { distinctUnionTools } from './fixtures/documents-tools.js';
import { objectUnionTools } from './fixtures/object-union-tools.js';
import { unionTools } from './fixtures/union-tools.js';

const TREE = process.env.TREE ?? new URL('..', import.meta.url).pathname;
const src = (path: string) => import(`${TREE.replace(/\/$/, '')}/src/${path}`);
const { validateMcpSchemas } = await src('index.ts');
const { flattenWithReport } = await src('core/projection/flatten.ts');
const { collapseNullable, dropSafeIntegerBounds, relaxIntersections } = await src('core/projection/index.ts');
const { projectForProfile } = await src('core/projection/profiles/index.ts');
const { checkDocument } = await src('core/probe/check-document.ts');

const PROFILES = ['anthropic', 'openai-strict', 'gemini', 'cursor', 'local-grammar'];
const OPTION_SETS: Record<string, object> = {
  faithful: {},
  flat: { flattenUnionInput: true },
  every: { projection: { choose: 'auto', serve: ['faithful', 'flat', ...PROFILES] } },
  profiles: { flattenUnionInput: true, schemaValidation: { profiles: PROFILES } },
  strict: { schemaValidation: { requireTypedProperties: true, requirePortableFormats: true, profiles: PROFILES } },
  'flat-strict': {
    flattenUnionInput: true,
    schemaValidation: { requireTypedProperties: true, requirePortableFormats: true, profiles: ['gemini'] },
  },
  ...Object.fromEntries(PROFILES.map((p) => [p, { projection: p }])),
};

/** JSON text that also spells what JSON cannot (a bigint), so that no case is skipped. */
const text = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
const hash = (value: unknown) => {
  let t: string;
  try {
    t = text(value);
  } catch (error) {
    t = `unserialisable: ${(error as Error).message}`;
  }
  return { digest: createHash('sha256').update(t).digest('hex').slice(0, 16), bytes: t.length };
};
const attempt = (fn: () => unknown) => {
  try {
    return fn();
  } catch (error) {
    return { threw: String(error) };
  }
};

const schemas: Array<[string, z.ZodType]> = [];
const sample = (name: string, arb: fc.Arbitrary<Gen>, runs: number) => {
  for (const [i, g] of fc.sample(arb, { seed: 36, numRuns: runs }).entries()) schemas.push([`${name}-${i}`, g.schema]);
};
sample('gen3', genArb(3), 120);
sample('du3', discriminatedUnionArb(3), 120);
sample('deep4', deepUnionArb(4), 50);
sample('root4', rootArb(4), 120);
sample('shape3', shapeArb(3), 80);
sample('untagged3', untaggedArb(3), 80);
sample('collision3', deepCollisionArb(3), 80);
sample('typed3', typedRootArb(3), 80);
for (const [name, value] of Object.entries(unions))
  if (value instanceof z.ZodType) schemas.push([`unions-${name}`, value]);
for (const [i, t] of unionTools(2).entries()) schemas.push([`bench-union-${i}`, t.input]);
for (const [i, t] of objectUnionTools(3).entries()) schemas.push([`bench-object-union-${i}`, t.input]);
for (const [i, t] of distinctUnionTools(3).entries()) schemas.push([`bench-distinct-${i}`, t.input]);

let lines = 0;
let bytes = 0;
const emit = (id: string, what: string, value: unknown) => {
  const h = hash(value);
  bytes += h.bytes;
  lines++;
  console.log(`${id}\t${what}\t${h.digest}\t${h.bytes}`);
};

const documents: Array<[string, unknown]> = [];
for (const [id, schema] of schemas) {
  const tool = { name: 'tool', description: id, input: schema, handler: () => ({ content: [] }) };
  for (const [name, options] of Object.entries(OPTION_SETS))
    emit(
      id,
      name,
      attempt(() => validateMcpSchemas([tool], options)),
    );
  const doc = attempt(() => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  documents.push([id, doc]);
}

// Every schema in one mount, twice (the same Zod objects under a second name): what one tool's preparation
// shares with another's (the flatten's repeats) must give each the documents it gives alone.
const together = [...schemas, ...schemas].map(([id, schema], i) => ({
  name: `tool_${i}`,
  description: id,
  input: schema,
  handler: () => ({ content: [] }),
}));
for (const [name, options] of Object.entries(OPTION_SETS)) {
  const report = attempt(() => validateMcpSchemas(together, options)) as { tools?: unknown[] };
  if (!Array.isArray(report.tools)) emit('together', name, report);
  else {
    emit('together', name, { ...report, tools: report.tools.length });
    for (const [i, t] of report.tools.entries()) emit(`together-${i}`, name, t);
  }
}

// Values a Zod conversion never writes, which the walks must still treat as before.
const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
(cyclic.properties as Record<string, unknown>).self = cyclic;
const union = (a: unknown, b: unknown) => ({
  anyOf: [
    { type: 'object', properties: { k: { const: 'a' }, v: a }, required: ['k'] },
    { type: 'object', properties: { k: { const: 'b' }, v: b }, required: ['k'] },
  ],
});
documents.push(
  [
    'hand-bigint',
    { type: 'object', properties: { a: union({ const: 1n }, { const: 1n }), b: union({ const: 1n }, { const: 1n }) } },
  ],
  ['hand-negative-zero', { type: 'object', properties: { a: union({ const: -0 }, {}), b: union({ const: 0 }, {}) } }],
  [
    'hand-date',
    { type: 'object', properties: { a: union({ default: new Date(0) }, {}), b: union({ default: new Date(0) }, {}) } },
  ],
  ['hand-undefined', { type: 'object', properties: { a: union({ default: undefined }, {}), b: union({}, {}) } }],
  [
    'hand-proto',
    JSON.parse('{"type":"object","properties":{"__proto__":{"anyOf":[{"type":"string"},{"type":"null"}]}}}'),
  ],
  ['hand-cyclic', cyclic],
  [
    'hand-nan',
    { type: 'object', properties: { a: union({ maximum: Number.NaN }, {}), b: union({ maximum: null }, {}) } },
  ],
);

const contexts = [
  { tool: 't', side: 'input', flattenRequested: false, options: {} },
  { tool: 't', side: 'input', flattenRequested: true, projection: 'flat', options: { profiles: PROFILES } },
  {
    tool: 't',
    side: 'output',
    flattenRequested: false,
    options: { requireTypedProperties: true, requirePortableFormats: true },
  },
  { tool: 't', side: 'input', flattenRequested: false, keepsRefs: true, options: { requireTypedProperties: true } },
];
for (const [id, doc] of documents) {
  const flat = attempt(() => flattenWithReport(doc));
  emit(id, 'flattenWithReport', flat);
  emit(
    id,
    'relaxIntersections',
    attempt(() => relaxIntersections(doc)),
  );
  emit(
    id,
    'collapseNullable',
    attempt(() => collapseNullable(doc)),
  );
  emit(
    id,
    'dropSafeIntegerBounds',
    attempt(() => dropSafeIntegerBounds(doc)),
  );
  for (const p of PROFILES)
    emit(
      id,
      `profile-${p}`,
      attempt(() => projectForProfile(p, doc)),
    );
  const flatDoc = (flat as { schema?: unknown }).schema;
  contexts.forEach((ctx, i) => {
    emit(
      id,
      `check-${i}`,
      attempt(() => checkDocument(doc, ctx)),
    );
    if (flatDoc !== undefined)
      emit(
        id,
        `check-flat-${i}`,
        attempt(() => checkDocument(flatDoc, ctx)),
      );
  });
}
console.error(
  `${schemas.length} schemas, ${documents.length} documents, ${lines} results, ${(bytes / 1e6).toFixed(1)} MB`,
);
