/**
 * Random Zod schemas are generated as plain `Spec` trees first, so a property test can walk the spec beside
 * a value; `toZod` builds the schema a spec stands for. Shared by the repair property suites, each of which
 * generates only some of these kinds (see their arbitraries).
 */
import { z } from 'zod';

export type SpecField = { name: string; spec: Spec; optional: boolean };

/** A value a discriminated union's tag may pin. */
export type TagValue = string | number | boolean | null;

/**
 * Distinct tag values of every JSON type a tag may have, with strings that spell the others (`'1'` beside
 * `1`, `'true'` beside `true`, `'null'` beside `null`): a union's tags are a slice of a shuffle of these.
 */
export const TAG_POOL: readonly TagValue[] = ['v0', 1, true, null, '1', 2.5, false, 'true', 0, 'null', -3, 'v1'];

/** The tag of variant `i` of a `du` spec. */
export function tagOf(spec: { tags?: readonly TagValue[] }, i: number): TagValue {
  return spec.tags ? spec.tags[i]! : `v${i}`;
}

/** The variant of a `du` spec a value's tag selects, or -1. */
export function variantOf(spec: { variants: unknown[]; tags?: readonly TagValue[] }, tag: unknown): number {
  return spec.variants.findIndex((_, i) => tagOf(spec, i) === tag);
}

/** Record key schemas: any string, an enum (refuses other keys), a loose enum (passes them through), a refinement. */
export type RecordKeys = 'string' | 'enum' | 'looseEnum' | 'min';

export type Spec =
  | { t: 'string' }
  | { t: 'number' }
  | { t: 'int' }
  | { t: 'boolean' }
  | { t: 'null' }
  | { t: 'literal'; value: string | number | boolean }
  | { t: 'enum'; values: string[] }
  | { t: 'unknown' }
  | { t: 'strOrNum' }
  | { t: 'strOrList' }
  | { t: 'nullable'; inner: Spec }
  /** An array of `inner` that defaults to `[]`. */
  | { t: 'default'; inner: Spec }
  | { t: 'object'; fields: SpecField[]; mode: 'strip' | 'strict' | 'loose' }
  | { t: 'array'; item: Spec }
  /** `keys` defaults to 'string'. */
  | { t: 'record'; value: Spec; keys?: RecordKeys }
  | { t: 'tuple'; items: Spec[] }
  /** Variant `i` is tagged `kind: tags[i]` (`'v<i>'` when `tags` is absent): strings, numbers, booleans, null. */
  | { t: 'du'; variants: SpecField[][]; tags?: readonly TagValue[] }
  /** A plain union of objects; member `i` gets a required boolean marker `m<i>` (see `memberFields`). */
  | { t: 'objUnion'; members: SpecField[][] }
  /** A plain union of any specs. */
  | { t: 'union'; members: Spec[] }
  | { t: 'lazy'; inner: Spec }
  | { t: 'transform'; inner: Spec }
  /** Two objects built from fields; the right side's keys are renamed so the sides never clash (`rightFields`). */
  | { t: 'and'; left: SpecField[]; right: SpecField[] }
  /** The intersection of any two specs, keys clashing or not. */
  | { t: 'intersection'; left: Spec; right: Spec };

/** Field names inside an `and`: the right side's keys are renamed so the sides never clash. */
export function rightFields(fields: SpecField[]): SpecField[] {
  return fields.map((f) => ({ ...f, name: `r_${f.name}` }));
}

/** Members of an `objUnion` get a required marker key of their own, so a value picks one member. */
export function memberFields(fields: SpecField[], i: number): SpecField[] {
  return [{ name: `m${i}`, spec: { t: 'boolean' }, optional: false }, ...fields.filter((f) => !f.name.startsWith('m'))];
}

function shape(fields: SpecField[]): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const f of fields) out[f.name] = f.optional ? toZod(f.spec).optional() : toZod(f.spec);
  return out;
}

export function toZod(spec: Spec): z.ZodType {
  switch (spec.t) {
    case 'string':
      return z.string();
    case 'number':
      return z.number();
    case 'int':
      return z.int();
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    case 'literal':
      return z.literal(spec.value);
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]);
    case 'unknown':
      return z.unknown();
    case 'strOrNum':
      return z.union([z.string(), z.number()]);
    case 'strOrList':
      return z.union([z.string(), z.array(z.number())]);
    case 'nullable':
      return toZod(spec.inner).nullable();
    case 'default':
      return z.array(toZod(spec.inner)).default([]);
    case 'object': {
      const s = shape(spec.fields);
      return spec.mode === 'strict' ? z.strictObject(s) : spec.mode === 'loose' ? z.looseObject(s) : z.object(s);
    }
    case 'array':
      return z.array(toZod(spec.item));
    case 'record': {
      const value = toZod(spec.value);
      // Key schemas that refuse some keys: by name (enum), as a refinement (min), or passing them through (loose).
      if (spec.keys === 'enum') return z.record(z.enum(['a', 'b']), value);
      if (spec.keys === 'looseEnum') return z.looseRecord(z.enum(['a']), value);
      if (spec.keys === 'min') return z.record(z.string().min(2), value);
      return z.record(z.string(), value);
    }
    case 'tuple':
      return z.tuple(spec.items.map(toZod) as [z.ZodType, ...z.ZodType[]]);
    case 'du':
      return z.discriminatedUnion(
        'kind',
        spec.variants.map((fields, i) => z.object({ ...shape(fields), kind: tagSchema(tagOf(spec, i)) })) as any,
      );
    case 'objUnion':
      return z.union(spec.members.map((fields, i) => z.object(shape(memberFields(fields, i)))) as any);
    case 'union':
      return z.union(spec.members.map(toZod) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    case 'lazy': {
      const inner = toZod(spec.inner);
      return z.lazy(() => inner);
    }
    case 'transform':
      return toZod(spec.inner).transform((o) => o);
    case 'and':
      return z.intersection(z.object(shape(spec.left)), z.object(shape(rightFields(spec.right))));
    case 'intersection':
      return z.intersection(toZod(spec.left), toZod(spec.right));
  }
}

/** `z.null()` for a null tag (Zod writes it `{type: "null"}`), else the literal. */
function tagSchema(value: TagValue): z.ZodType {
  return value === null ? z.null() : z.literal(value);
}
