/**
 * What kinds of JSON value a schema accepts at one position, read from its definition.
 *
 * Every repair decision is a question about this summary: "does this position accept a string?"
 * (then nothing is changed), "does it expect an array or object?" (then JSON text may be parsed),
 * "does it expect a number / boolean / null?" (then a scalar string may be converted). Refinements,
 * formats and bounds are ignored on purpose: they decide whether Zod accepts the value, not which
 * kind of value the sender meant, and the Zod parse that follows applies them.
 */
import { type AnyDef, defOf, enumValues, isIntegerNumber, isSchema, lazyTarget, type Schema } from './def.js';

export interface Accepts {
  /** Accepts any value (unknown, any, catch, transform, coerce, custom, ...): repair never touches it. */
  readonly any: boolean;
  /** Accepts every string (z.string() and its formats, template literals). */
  readonly anyString: boolean;
  /** Accepts exactly these strings (string literals and enum values). */
  readonly strings: ReadonlySet<string>;
  /** Accepts every finite number. */
  readonly realNumber: boolean;
  /** Accepts integers (z.int(), .int()). */
  readonly intNumber: boolean;
  /** Accepts exactly these numbers (numeric literals and enum values). */
  readonly numbers: ReadonlySet<number>;
  readonly true: boolean;
  readonly false: boolean;
  readonly null: boolean;
  readonly undefined: boolean;
  readonly array: boolean;
  /** Objects and records alike. */
  readonly object: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const EMPTY_STRINGS: ReadonlySet<string> = new Set();
const EMPTY_NUMBERS: ReadonlySet<number> = new Set();

function nothing(): Mutable<Accepts> {
  return {
    any: false,
    anyString: false,
    strings: EMPTY_STRINGS,
    realNumber: false,
    intNumber: false,
    numbers: EMPTY_NUMBERS,
    true: false,
    false: false,
    null: false,
    undefined: false,
    array: false,
    object: false,
  };
}

const ACCEPTS_NOTHING: Accepts = Object.freeze(nothing());
export const ACCEPTS_ANY: Accepts = Object.freeze({ ...nothing(), any: true });

function make(patch: Partial<Accepts>): Accepts {
  return Object.freeze({ ...nothing(), ...patch });
}

/** True when some string passes at this position; then repair leaves every string there as sent. */
export function acceptsSomeString(a: Accepts): boolean {
  return a.any || a.anyString || a.strings.size > 0;
}

/** True when the summary admits this particular string. */
export function acceptsStringValue(a: Accepts, s: string): boolean {
  return a.any || a.anyString || a.strings.has(s);
}

/** True when some number passes at this position. */
export function acceptsSomeNumber(a: Accepts): boolean {
  return a.realNumber || a.intNumber || a.numbers.size > 0;
}

/** True when the summary admits this particular number. */
export function acceptsNumberValue(a: Accepts, n: number): boolean {
  return a.any || a.realNumber || (a.intNumber && Number.isInteger(n)) || a.numbers.has(n);
}

function union<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): ReadonlySet<T> {
  if (a.size === 0) return b;
  if (b.size === 0) return a;
  return new Set([...a, ...b]);
}

/** The summary of "a or b" (a union member list). */
export function orAccepts(a: Accepts, b: Accepts): Accepts {
  if (a.any || b.any) return ACCEPTS_ANY;
  return make({
    anyString: a.anyString || b.anyString,
    strings: union(a.strings, b.strings),
    realNumber: a.realNumber || b.realNumber,
    intNumber: a.intNumber || b.intNumber,
    numbers: union(a.numbers, b.numbers),
    true: a.true || b.true,
    false: a.false || b.false,
    null: a.null || b.null,
    undefined: a.undefined || b.undefined,
    array: a.array || b.array,
    object: a.object || b.object,
  });
}

/** The summary of "a and b" (an intersection): a kind passes only if both sides take it. */
export function andAccepts(a: Accepts, b: Accepts): Accepts {
  if (a.any) return b;
  if (b.any) return a;
  const strings = new Set<string>();
  for (const s of a.strings) if (acceptsStringValue(b, s)) strings.add(s);
  for (const s of b.strings) if (acceptsStringValue(a, s)) strings.add(s);
  const numbers = new Set<number>();
  for (const n of a.numbers) if (acceptsNumberValue(b, n)) numbers.add(n);
  for (const n of b.numbers) if (acceptsNumberValue(a, n)) numbers.add(n);
  const realNumber = a.realNumber && b.realNumber;
  return make({
    anyString: a.anyString && b.anyString,
    strings,
    realNumber,
    intNumber: !realNumber && (a.intNumber || a.realNumber) && (b.intNumber || b.realNumber),
    numbers,
    true: a.true && b.true,
    false: a.false && b.false,
    null: a.null && b.null,
    undefined: a.undefined && b.undefined,
    array: a.array && b.array,
    object: a.object && b.object,
  });
}

/** Summary of literal / enum values. */
function fromValues(values: Iterable<unknown>): Accepts {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const out = nothing();
  for (const v of values) {
    if (typeof v === 'string') strings.add(v);
    else if (typeof v === 'number') numbers.add(v);
    else if (v === true) out.true = true;
    else if (v === false) out.false = true;
    else if (v === null) out.null = true;
    else if (v === undefined) out.undefined = true;
    // bigint and symbol literals cannot arrive in JSON; they add nothing.
  }
  out.strings = strings;
  out.numbers = numbers;
  return Object.freeze(out);
}

const memo = new WeakMap<Schema, Accepts>();
/** Schemas whose summary is being computed; meeting one again means a cycle made only of wrappers/unions. */
const inProgress = new Set<Schema>();

/** The summary for one schema, memoised per schema object (schemas are immutable in Zod v4). */
export function acceptsOf(schema: Schema | undefined): Accepts {
  if (!schema || !isSchema(schema)) return ACCEPTS_ANY;
  const known = memo.get(schema);
  if (known) return known;
  // A union or lazy that reaches itself without passing through an object or array describes no
  // finite value; treat the inner occurrence as accepting nothing so the outer one still resolves.
  if (inProgress.has(schema)) return ACCEPTS_NOTHING;
  inProgress.add(schema);
  try {
    const result = compute(schema, defOf(schema));
    memo.set(schema, result);
    return result;
  } finally {
    inProgress.delete(schema);
  }
}

function compute(schema: Schema, def: AnyDef): Accepts {
  return scalarAccepts(schema, def) ?? compositeAccepts(schema, def);
}

/** The summary of a scalar kind, or undefined for a container, combinator or wrapper. */
function scalarAccepts(schema: Schema, def: AnyDef): Accepts | undefined {
  switch (def.type) {
    case 'string':
      return def.coerce ? ACCEPTS_ANY : make({ anyString: true });
    case 'template_literal':
      return make({ anyString: true });
    case 'number':
    case 'int':
      if (def.coerce) return ACCEPTS_ANY;
      return isIntegerNumber(def) ? make({ intNumber: true }) : make({ realNumber: true });
    case 'boolean':
      return def.coerce ? ACCEPTS_ANY : make({ true: true, false: true });
    case 'bigint':
    case 'date':
      // z.coerce.* accept anything; plain bigint/date values never arrive as JSON, so no string converts to them.
      return def.coerce ? ACCEPTS_ANY : ACCEPTS_NOTHING;
    case 'null':
      return make({ null: true });
    case 'undefined':
    case 'void':
      return make({ undefined: true });
    case 'literal':
      return fromValues(def.values ?? []);
    case 'enum': {
      return fromValues(enumValues(schema) ?? Object.values(def.entries ?? {}));
    }
    default:
      return undefined;
  }
}

/** The summary of a container, a combinator or a wrapper (read through to what it wraps). */
function compositeAccepts(schema: Schema, def: AnyDef): Accepts {
  switch (def.type) {
    case 'object':
    case 'record':
      return make({ object: true });
    case 'array':
    case 'tuple':
      return make({ array: true });
    case 'union': {
      let acc = ACCEPTS_NOTHING;
      for (const option of def.options ?? []) acc = orAccepts(acc, acceptsOf(option));
      return acc;
    }
    case 'intersection':
      return andAccepts(acceptsOf(def.left), acceptsOf(def.right));
    case 'optional':
    case 'default':
    case 'prefault':
      return orAccepts(acceptsOf(def.innerType), make({ undefined: true }));
    case 'nullable':
      return orAccepts(acceptsOf(def.innerType), make({ null: true }));
    case 'nonoptional': {
      const inner = acceptsOf(def.innerType);
      return inner.any ? inner : Object.freeze({ ...inner, undefined: false });
    }
    case 'readonly':
      return acceptsOf(def.innerType);
    case 'lazy':
      return acceptsOf(lazyTarget(schema));
    case 'pipe':
      // A pipe (and a codec) is judged by its input side: that is what the sender has to produce.
      return acceptsOf(def.in);
    case 'never':
    case 'nan':
    case 'symbol':
    case 'map':
    case 'set':
    case 'file':
    case 'function':
      return ACCEPTS_NOTHING;
    default:
      // any, unknown, custom, transform, catch (falls back on every input), success, promise, and
      // kinds a later Zod may add: treat as "accepts anything" so repair leaves the value alone.
      return ACCEPTS_ANY;
  }
}
