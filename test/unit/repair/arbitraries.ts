/**
 * Random Zod schemas with valid values, for repair's property tests.
 *
 * A schema is generated as a plain `Spec` tree first (`toZod` in test/support/zod-specs.ts builds
 * it), so the test can walk the spec beside the value: to find the container nodes a sender may have stringified (positions that expect an
 * array/object and accept no string), and the strings held by string-typed fields. Shapes follow
 * the flatten suite: objects in every key mode, arrays, records, tuples, discriminated unions,
 * plain unions of objects, lazy, transform, intersections, nullable/optional/default, unknown.
 */
import fc from 'fast-check';
import {
  memberFields,
  rightFields,
  type Spec,
  type SpecField,
  TAG_POOL,
  type TagValue,
  tagOf,
  variantOf,
} from '../../support/zod-specs.js';

/** Strings that look like other kinds: a repair that touches string fields would change them. */
export const trickyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    '123',
    '-3.5',
    '0',
    'true',
    'false',
    'null',
    '[1,2]',
    '{"a":1}',
    '["x"]',
    ' 7',
    '{}',
    '[]',
    '1e5',
    '',
  ),
);

const plainString = fc.string({ maxLength: 8 }).filter((s) => !/^\s*[[{]/.test(s));

const num = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).map((x) => (x === 0 ? 0 : x));
const int = fc.integer({ min: -1_000_000, max: 1_000_000 });

/** JSON values with keys from a fixed set (no prototype keys, which repair drops on purpose). */
const json: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { maxDepth: 2 },
    trickyString,
    int,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c d'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

const FIELD_NAMES = ['a', 'b', 'c', 'd', 'e'];

function fieldsArb(spec: fc.Arbitrary<Spec>, min = 0): fc.Arbitrary<SpecField[]> {
  return fc
    .uniqueArray(fc.constantFrom(...FIELD_NAMES), { minLength: min, maxLength: 4 })
    .chain((names) =>
      fc
        .tuple(...names.map((name) => fc.record({ name: fc.constant(name), spec, optional: fc.boolean() })))
        .map((f) => [...f]),
    );
}

export const specArb: fc.Arbitrary<Spec> = fc.letrec<{ spec: Spec; obj: Spec }>((tie) => {
  const spec = tie('spec') as fc.Arbitrary<Spec>;
  const obj = tie('obj') as fc.Arbitrary<Spec>;
  return {
    obj: fc.record({
      t: fc.constant('object' as const),
      fields: fieldsArb(spec),
      mode: fc.constantFrom('strip', 'strict', 'loose'),
    }),
    // Cast: with this many branches TypeScript widens oneof's element type to unknown.
    spec: fc.oneof<fc.Arbitrary<Spec>[]>(
      { maxDepth: 4 },
      fc.constant({ t: 'string' as const }),
      fc.constant({ t: 'number' as const }),
      fc.constant({ t: 'int' as const }),
      fc.constant({ t: 'boolean' as const }),
      fc.constant({ t: 'null' as const }),
      fc.constant({ t: 'enum' as const, values: ['x', 'y', '1'] }),
      fc.constant({ t: 'unknown' as const }),
      fc.constant({ t: 'strOrNum' as const }),
      fc.constant({ t: 'strOrList' as const }),
      fc.record({ t: fc.constant('nullable' as const), inner: spec }),
      fc.record({ t: fc.constant('default' as const), inner: spec }),
      obj,
      fc.record({ t: fc.constant('array' as const), item: spec }),
      fc.record({ t: fc.constant('record' as const), value: spec }),
      fc.record({ t: fc.constant('tuple' as const), items: fc.array(spec, { minLength: 1, maxLength: 3 }) }),
      fc.array(fieldsArb(spec), { minLength: 1, maxLength: 3 }).chain((variants) =>
        fc
          .option(fc.shuffledSubarray([...TAG_POOL], { minLength: variants.length, maxLength: variants.length }), {
            nil: undefined,
          })
          .map((tags): Spec => ({ t: 'du', variants, ...(tags && { tags }) })),
      ),
      fc.record({
        t: fc.constant('objUnion' as const),
        members: fc.array(fieldsArb(spec), { minLength: 2, maxLength: 3 }),
      }),
      fc.record({ t: fc.constant('lazy' as const), inner: spec }),
      fc.record({ t: fc.constant('transform' as const), inner: obj }),
      fc.record({ t: fc.constant('and' as const), left: fieldsArb(spec), right: fieldsArb(spec) }),
    ),
  };
}).spec;

/** The root of a tool input is an object. */
export const rootSpecArb: fc.Arbitrary<Spec> = fc.record({
  t: fc.constant('object' as const),
  fields: fieldsArb(specArb, 1),
  mode: fc.constantFrom('strip', 'strict', 'loose'),
});

function objectValue(
  fields: SpecField[],
  extra: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const parts = fields.map((f) =>
    f.optional
      ? fc.option(valueArb(f.spec), { nil: undefined }).map((v) => [f.name, v] as const)
      : valueArb(f.spec).map((v) => [f.name, v] as const),
  );
  return fc.tuple(fc.tuple(...parts), extra).map(([entries, rest]) => {
    const out: Record<string, unknown> = { ...rest };
    for (const [k, v] of entries) if (v !== undefined) out[k] = v;
    return out;
  });
}

const noExtra = fc.constant({});

/** A value that the spec's schema accepts. */
export function valueArb(spec: Spec): fc.Arbitrary<unknown> {
  switch (spec.t) {
    case 'string':
      return trickyString;
    case 'number':
      return num;
    case 'int':
      return int;
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'enum':
      return fc.constantFrom(...spec.values);
    case 'unknown':
      return json;
    case 'strOrNum':
      return fc.oneof(trickyString, num);
    case 'strOrList':
      return fc.oneof(plainString, fc.array(int, { maxLength: 3 }));
    case 'nullable':
      return fc.oneof(fc.constant(null), valueArb(spec.inner));
    case 'default':
      return fc.array(valueArb(spec.inner), { maxLength: 2 });
    case 'object':
      return objectValue(spec.fields, spec.mode === 'strict' ? noExtra : fc.constantFrom({}, { zz_extra: 1 }));
    case 'array':
      return fc.array(valueArb(spec.item), { maxLength: 3 });
    case 'record':
      return fc.dictionary(fc.constantFrom('k1', 'k2', 'a.b', 'x y'), valueArb(spec.value), { maxKeys: 3 });
    case 'tuple':
      return fc.tuple(...spec.items.map(valueArb)).map((t) => [...t]);
    case 'du':
      return fc
        .integer({ min: 0, max: spec.variants.length - 1 })
        .chain((i) => objectValue(spec.variants[i]!, noExtra).map((o) => ({ ...o, kind: tagOf(spec, i) })));
    case 'objUnion':
      return fc
        .integer({ min: 0, max: spec.members.length - 1 })
        .chain((i) => objectValue(memberFields(spec.members[i]!, i), noExtra));
    case 'lazy':
    case 'transform':
      return valueArb(spec.inner);
    case 'and':
      return fc
        .tuple(objectValue(spec.left, noExtra), objectValue(rightFields(spec.right), noExtra))
        .map(([l, r]) => ({ ...l, ...r }));
    default:
      throw new Error(`specArb generates no ${spec.t}`);
  }
}

export type Path = Array<string | number>;

function isContainer(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

/**
 * Walks spec and value together, calling `visit` with the spec that describes each value.
 * Stops under `unknown` (nothing there is typed).
 */
export function walkSpec(
  spec: Spec,
  value: unknown,
  path: Path,
  visit: (spec: Spec, value: unknown, path: Path) => void,
): void {
  visit(spec, value, path);
  const fieldsOf = (fields: SpecField[], obj: Record<string, unknown>) => {
    for (const f of fields) if (Object.hasOwn(obj, f.name)) walkSpec(f.spec, obj[f.name], [...path, f.name], visit);
  };
  switch (spec.t) {
    case 'nullable':
      if (value !== null) walkSpec(spec.inner, value, path, visit);
      return;
    case 'lazy':
    case 'transform':
      walkSpec(spec.inner, value, path, visit);
      return;
    case 'default':
      if (Array.isArray(value)) for (const [i, v] of value.entries()) walkSpec(spec.inner, v, [...path, i], visit);
      return;
    case 'object':
      if (isContainer(value)) fieldsOf(spec.fields, value as Record<string, unknown>);
      return;
    case 'array':
      if (Array.isArray(value)) for (const [i, v] of value.entries()) walkSpec(spec.item, v, [...path, i], visit);
      return;
    case 'record':
      if (isContainer(value)) for (const [k, v] of Object.entries(value)) walkSpec(spec.value, v, [...path, k], visit);
      return;
    case 'tuple':
      if (Array.isArray(value)) for (const [i, v] of value.entries()) walkSpec(spec.items[i]!, v, [...path, i], visit);
      return;
    case 'du': {
      if (!isContainer(value)) return;
      const i = variantOf(spec, (value as any).kind);
      if (i >= 0) fieldsOf(spec.variants[i]!, value as Record<string, unknown>);
      return;
    }
    case 'objUnion': {
      if (!isContainer(value)) return;
      const i = spec.members.findIndex((_, j) => Object.hasOwn(value, `m${j}`));
      if (i >= 0) fieldsOf(memberFields(spec.members[i]!, i), value as Record<string, unknown>);
      return;
    }
    case 'and':
      if (isContainer(value)) {
        fieldsOf(spec.left, value as Record<string, unknown>);
        fieldsOf(rightFields(spec.right), value as Record<string, unknown>);
      }
      return;
    case 'strOrList':
      return; // its list items are numbers, typed but never strings
    default:
      return;
  }
}

/** Container kinds that expect an array/object and accept no string at their position. */
function structured(spec: Spec): boolean {
  switch (spec.t) {
    case 'object':
    case 'array':
    case 'record':
    case 'tuple':
    case 'du':
    case 'objUnion':
    case 'and':
    case 'default':
      return true;
    case 'nullable':
    case 'lazy':
    case 'transform':
      return structured(spec.inner);
    default:
      return false;
  }
}

/** Paths of array/object values that a sender could have written as JSON text and repair must restore. */
export function stringifiablePaths(spec: Spec, value: unknown): Path[] {
  const out: Path[] = [];
  walkSpec(spec, value, [], (s, v, p) => {
    if (isContainer(v) && structured(s)) out.push(p);
  });
  return out;
}

/** Every string held by a field whose schema accepts strings (string, enum, string-or-number, string-or-list). */
export function stringFields(spec: Spec, value: unknown): Array<[Path, string]> {
  const out: Array<[Path, string]> = [];
  walkSpec(spec, value, [], (s, v, p) => {
    if (typeof v === 'string' && (s.t === 'string' || s.t === 'enum' || s.t === 'strOrNum' || s.t === 'strOrList'))
      out.push([p, v]);
  });
  return out;
}

/**
 * Every tag of a discriminated union in the value that is not a string, with the text a sender might write
 * for it (`"1"`, `"true"`, `"null"`) and whether that text is a tag of the same union itself (`"1"` beside
 * `1`), where it selects the string's variant and must not be converted.
 */
export function tagTexts(spec: Spec, value: unknown): Array<{ path: Path; text: string; ownTag: boolean }> {
  const out: Array<{ path: Path; text: string; ownTag: boolean }> = [];
  // Below a transform nothing is repaired (it accepts anything as far as repair can tell).
  const transforms: Path[] = [];
  const under = (p: Path) => transforms.some((t) => t.every((k, i) => p[i] === k));
  walkSpec(spec, value, [], (s, v, p) => {
    if (s.t === 'transform') transforms.push(p);
    if (s.t !== 'du' || !isContainer(v) || Array.isArray(v) || under(p)) return;
    const tag = (v as Record<string, unknown>).kind as TagValue;
    if (typeof tag === 'string' || variantOf(s, tag) < 0) return;
    const text = tag === null ? 'null' : String(tag);
    out.push({ path: [...p, 'kind'], text, ownTag: variantOf(s, text) >= 0 });
  });
  return out;
}

export function getAt(root: unknown, path: Path): unknown {
  let cur: any = root;
  for (const k of path) cur = cur?.[k];
  return cur;
}

/** A copy of `root` with the node at `path` replaced (the original is untouched). */
export function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  copy[head!] = setAt(copy[head!], rest, value);
  return copy;
}
