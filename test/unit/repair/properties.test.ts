/**
 * Property tests over random schemas (see arbitraries.ts), fixed seed, 1,000 values per property (scaled by
 * MCP_MOUNT_PROPERTY_RUNS: test/support/property-runs.ts).
 *
 * (a) Stringify any one array/object node of a valid value (compact or pretty-printed):
 *     repair + the one Zod parse gives exactly what the original value parses to.
 * (b) No string held by a string-typed field is ever changed, even strings that look like
 *     numbers, booleans, null or JSON, and even when a parent arrived as text.
 * (c) A valid value needs no repair: repair returns the very same object and reports nothing.
 * (d) A discriminated union's number, boolean or null tag sent as text ("1", "true", "null") is converted and
 *     reported, and the parse is the original's; where that text is a tag of the same union ("1" beside 1),
 *     it is kept as sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../../src/core/messages/path.js';
import { repairArgs } from '../../../src/core/repair/index.js';
import { propertyRuns } from '../../support/property-runs.js';
import { toZod } from '../../support/zod-specs.js';
import { getAt, rootSpecArb, setAt, stringFields, stringifiablePaths, tagTexts, valueArb } from './arbitraries.js';

const SEED = 20_260_728;
const RUNS = propertyRuns(1000);

const caseArb = rootSpecArb.chain((spec) => valueArb(spec).map((value) => ({ spec, value })));

describe('repair properties', () => {
  it('(a) one stringified node at any depth is restored to the original parse', () => {
    let stringifiedDepthTotal = 0;
    fc.assert(
      fc.property(caseArb, fc.nat(), fc.boolean(), ({ spec, value }, pick, pretty) => {
        const schema = toZod(spec);
        const original = schema.safeParse(value);
        expect(original.success).toBe(true);
        const paths = stringifiablePaths(spec, value);
        const path = paths[pick % paths.length]!; // the root object is always stringifiable
        stringifiedDepthTotal += path.length;
        const sent = setAt(value, path, JSON.stringify(getAt(value, path), null, pretty ? 2 : undefined));
        const r = repairArgs(sent, schema);
        expect(r.issues).toEqual([]);
        expect(r.repairs.length).toBeGreaterThan(0);
        const parsed = schema.safeParse(r.value);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(original.data);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The generator reaches below the root on average, not only the whole-arguments case.
    expect(stringifiedDepthTotal / RUNS).toBeGreaterThan(0.5);
  });

  it('(b) no string held by a string-typed field is ever changed', () => {
    let stringsChecked = 0;
    fc.assert(
      fc.property(caseArb, fc.nat(), fc.boolean(), ({ spec, value }, pick, stringify) => {
        const schema = toZod(spec);
        const strings = stringFields(spec, value);
        const paths = stringifiablePaths(spec, value);
        const path = paths[pick % paths.length]!;
        const sent = stringify ? setAt(value, path, JSON.stringify(getAt(value, path))) : value;
        const r = repairArgs(sent, schema);
        for (const [p, s] of strings) {
          expect(getAt(r.value, p)).toBe(s);
          stringsChecked++;
        }
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
    expect(stringsChecked).toBeGreaterThan(RUNS);
  });

  it('(c) a valid value is returned as the same object, with no repairs and no issues', () => {
    fc.assert(
      fc.property(caseArb, ({ spec, value }) => {
        const r = repairArgs(value, toZod(spec));
        expect(r.value).toBe(value);
        expect(r.repairs).toEqual([]);
        expect(r.issues).toEqual([]);
      }),
      { seed: SEED + 2, numRuns: RUNS },
    );
  });

  it('(d) a tag sent as text is converted and reported where the union has no such string tag, kept where it has', () => {
    let converted = 0;
    let kept = 0;
    fc.assert(
      fc.property(caseArb, fc.nat(), ({ spec, value }, pick) => {
        const tags = tagTexts(spec, value);
        fc.pre(tags.length > 0);
        const { path, text, ownTag } = tags[pick % tags.length]!;
        const schema = toZod(spec);
        const r = repairArgs(setAt(value, path, text), schema);
        if (ownTag) {
          expect(getAt(r.value, path)).toBe(text);
          kept++;
          return;
        }
        const from =
          text === 'null' ? 'null-string' : text === 'true' || text === 'false' ? 'boolean-string' : 'number-string';
        expect(r.issues).toEqual([]);
        expect(r.repairs).toContainEqual({ path: formatPath(path), from });
        expect(schema.parse(r.value)).toEqual(schema.parse(value));
        converted++;
      }),
      { seed: SEED + 3, numRuns: RUNS, maxSkipsPerRun: 1000 },
    );
    console.log(`[repair property d] ${JSON.stringify({ runs: RUNS, converted, kept })}`);
    expect(converted).toBeGreaterThan(RUNS / 2);
    expect(kept).toBeGreaterThan(0);
  });
});
