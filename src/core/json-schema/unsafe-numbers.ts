import { subschemaShape } from './keywords.js';
import { setOwn } from './own-properties.js';
import { pointer } from './pointer.js';
import { isPlainObject, type JsonSchema } from './types.js';

// An integer beyond ±(2^53 - 1) is printed by `JSON.stringify` without an exponent
// (`9223372036854775807` as `9223372036854776000`), so a client that reads JSON integers as int64
// refuses the whole request ("int too big to convert": Anthropic's API). No client can use such a value
// as meant anyway: it is not the number the author wrote.

/** An integer-valued number that a double cannot hold exactly. */
function isUnsafeNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER;
}

/** Keywords whose number only ever narrows what a node accepts: dropping it widens. */
const NUMERIC_ASSERTIONS: ReadonlySet<string> = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
]);

/** Where a document held an unsafe number, and what was done about it. */
export interface UnsafeNumberNote {
  path: string;
  message: string;
}

/**
 * `schema` without the unsafe integers (`isUnsafeNumber`) it holds, each dropped so that the result accepts
 * a superset: a bound or `multipleOf` goes, a `const` or an `enum` that holds one goes (its `type` stays), a
 * `default` goes, an `examples` entry goes; a `not` or an `if` (with its `then`/`else`) whose sub-tree holds
 * one goes whole, since widening there would narrow. Each drop is a note at its node. Pure; `schema` itself
 * when there is none. `safeIntegerBounds` is false when no number in the result is ±(2^53 - 1) (the bounds
 * Zod writes for `.int()`), so that `dropSafeIntegerBounds` need not walk it: found in the same walk.
 */
export function dropUnsafeNumbers(schema: JsonSchema): {
  schema: JsonSchema;
  notes: UnsafeNumberNote[];
  safeIntegerBounds: boolean;
} {
  const notes: UnsafeNumberNote[] = [];
  const found = numbersIn(schema);
  if ((found & UNSAFE) === 0) return { schema, notes, safeIntegerBounds: (found & SAFE_BOUND) !== 0 };
  // Rare: the bounds are not looked for below what is dropped, and may be there.
  return { schema: walk(schema, '', notes) as JsonSchema, notes, safeIntegerBounds: true };
}

function walk(node: unknown, at: string, notes: UnsafeNumberNote[]): unknown {
  if (!isPlainObject(node) || !holdsUnsafe(node)) return node;
  const out: JsonSchema = {};
  const dropped: string[] = [];
  const negative = new Set<string>();
  if (holdsUnsafe(node.not)) negative.add('not');
  if (holdsUnsafe(node.if)) for (const k of ['if', 'then', 'else']) negative.add(k);
  for (const keyword of Object.keys(node)) {
    const value = node[keyword];
    if (negative.has(keyword)) {
      dropped.push(keyword);
    } else if (keyword === 'examples' && Array.isArray(value)) {
      const kept = value.filter((v) => !holdsUnsafe(v));
      if (kept.length < value.length) dropped.push('examples entries');
      if (kept.length > 0) out.examples = kept;
    } else if (subschemaShape(keyword) === undefined) {
      if ((NUMERIC_ASSERTIONS.has(keyword) && isUnsafeNumber(value)) || (DATA.has(keyword) && holdsUnsafe(value))) {
        dropped.push(keyword);
      } else setOwn(out, keyword, value);
    } else setOwn(out, keyword, walkKeyword(keyword, value, at, notes));
  }
  if (dropped.length > 0) {
    notes.push({
      path: at,
      message: `${dropped.join(', ')} left out: an integer beyond ±(2^53 - 1) is not sent as written and some clients refuse the request ("int too big to convert"); the parse still applies the rule`,
    });
  }
  return out;
}

const DATA: ReadonlySet<string> = new Set(['const', 'enum', 'default']);

function walkKeyword(keyword: string, value: unknown, at: string, notes: UnsafeNumberNote[]): unknown {
  const shape = subschemaShape(keyword);
  if (Array.isArray(value)) return value.map((child, i) => walk(child, pointer(at, keyword, i), notes));
  if (shape === 'map' && isPlainObject(value)) {
    const map: JsonSchema = {};
    for (const name of Object.keys(value)) setOwn(map, name, walk(value[name], pointer(at, keyword, name), notes));
    return map;
  }
  return walk(value, pointer(at, keyword), notes);
}

/** True when `value` (a schema or data) holds an unsafe integer anywhere. Linear. */
function holdsUnsafe(value: unknown): boolean {
  return (numbersIn(value) & UNSAFE) !== 0;
}

const UNSAFE = 1;
const SAFE_BOUND = 2;

/**
 * `UNSAFE` when `value` holds an unsafe integer anywhere (found first, it ends the walk), or'ed with
 * `SAFE_BOUND` when it holds ±(2^53 - 1). Typed before any call: it reads every value of every document.
 */
function numbersIn(value: unknown): number {
  if (typeof value === 'number') {
    if (isUnsafeNumber(value)) return UNSAFE;
    return value === Number.MAX_SAFE_INTEGER || value === -Number.MAX_SAFE_INTEGER ? SAFE_BOUND : 0;
  }
  if (typeof value !== 'object' || value === null) return 0;
  let found = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      found |= numbersIn(value[i]);
      if ((found & UNSAFE) !== 0) return found;
    }
    return found;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    found |= numbersIn((value as Record<string, unknown>)[keys[i]!]);
    if ((found & UNSAFE) !== 0) return found;
  }
  return found;
}
