/**
 * Which keys of a value the original schema would silently drop, read from its definition (no parse):
 * a plain `z.object` strips every key it does not declare, and the handler never learns it was sent. The
 * walk follows the value the way the parse would: declared fields, catch-alls, record values, array and
 * tuple items, the variant a tag selects, the first member of a plain union that fits, both sides of an
 * intersection. Strict objects are left to their own "unrecognized key" error, loose ones keep the key.
 */
import { tagValueText } from '../json-schema/tag-values.js';
import { isPlainObject } from '../json-schema/types.js';
import { acceptsOf } from './accepted-kinds.js';
import { shapeField, tupleItem } from './child-schemas.js';
import { type AnyDef, defOf, isNever, isOptionalIn, propValues, type Schema, unwrap } from './def.js';
import { type KeyHints, keyHints } from './key-hints.js';
import { recordTakesKey } from './record-keys.js';
import { shapeKeys } from './shape-keys.js';
import { requiredKeys, selectVariant } from './variant.js';

/** One key a strip object would drop. */
export interface StrippedKey {
  /** The path of the object holding the key (`[]` for the arguments themselves). */
  path: PropertyKey[];
  key: string;
  /** The keys that object declares, for a "did you mean". */
  declared: readonly string[];
  /** What each declared key says beyond its name (nested fields, description), for a "did you mean". */
  hints?: KeyHints;
  /** Which form of a union the object was read as: `kind = a`, or `given flowName` (the member that fit). */
  within?: string;
  /** Another member of that union declares the key: it belongs to another form, not misspelt. */
  otherForm?: boolean;
}

/**
 * The union an object is read through, with what names the form: the tag sent to a discriminated union, or
 * the member of a plain union that fit. Its label and keys are spelled only for a key that is kept.
 */
interface Form {
  readonly union: Schema;
  readonly tag?: unknown;
  readonly member?: Schema;
}

/** Values nested deeper than this are not looked into (the parse still checks them); it bounds the recursion. */
const MAX_DEPTH = 128;

/**
 * Schema steps in one walk before it stops (what it found so far stands). Each sent value costs a step per
 * schema that reads it, so only a schema that reads a value many times over (intersections of recursive
 * objects) comes near it.
 */
const MAX_STEPS = 4_000_000;

/** Where a value sits: its parent's place and its own key; spelled as a path only for a key that is kept. */
interface At {
  readonly parent: At | null;
  readonly key: PropertyKey;
}

/** A key found, with the object that held it (two sides of an intersection see the same objects). */
interface Found {
  holder: object;
  at: At | null;
  key: string;
  declared: readonly string[];
  schema?: Schema;
  form: Form | undefined;
}

interface State {
  /** The keys found, up to `limit`; past it they are counted in `more`. */
  found: Found[];
  more: number;
  limit: number;
  steps: number;
}

/** What `strippedKeys` found: the first keys (at most the limit asked for), how many more, and its work. */
export interface Stripped {
  keys: StrippedKey[];
  /** Keys found past the limit, counted only. */
  more: number;
  /** Schema steps taken: linear in the value's size for a given schema. */
  steps: number;
}

/**
 * Every key of `value` that `schema` would strip, in the order met: the first `limit` with their paths, the
 * rest counted. Linear in the value's size; never throws.
 */
export function strippedKeys(schema: Schema, value: unknown, limit = Number.POSITIVE_INFINITY): Stripped {
  const state: State = { found: [], more: 0, limit: Math.max(0, limit), steps: 0 };
  try {
    walk(schema, value, null, 0, undefined, state);
  } catch {
    // A throwing getter or lazy: nothing to say, the parse reports what it finds.
    return { keys: [], more: 0, steps: state.steps };
  }
  return { keys: state.found.map(publicKey), more: state.more, steps: state.steps };
}

function walk(schema: Schema, value: unknown, at: At | null, depth: number, form: Form | undefined, state: State) {
  if (depth > MAX_DEPTH || ++state.steps > MAX_STEPS) return;
  const s = unwrap(schema);
  if (!s) return;
  const def = defOf(s);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return;
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const field = shapeField(def, key);
        if (field) {
          if (holdsKeys(value[key])) walk(field, value[key], { parent: at, key }, depth + 1, undefined, state);
        }
        // A key sent as null carries nothing to lose: a strict-mode client sends every key it was shown,
        // null for those it means to leave out (another variant's, for a flattened union).
        else if (def.catchall === undefined) {
          if (value[key] !== null) keep(state, { holder: value, at, key, declared: declaredOf(s), schema: s, form });
        } else if (!isNever(def.catchall) && holdsKeys(value[key]))
          walk(def.catchall, value[key], { parent: at, key }, depth + 1, undefined, state);
      }
      return;
    }
    case 'record': {
      if (!isPlainObject(value) || !def.valueType) return;
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        if (holdsKeys(value[key]) && recordTakesKey(def, key) !== false)
          walk(def.valueType, value[key], { parent: at, key }, depth + 1, undefined, state);
      }
      return;
    }
    case 'array':
      if (!Array.isArray(value) || !def.element) return;
      for (let i = 0; i < value.length; i++)
        if (holdsKeys(value[i])) walk(def.element, value[i], { parent: at, key: i }, depth + 1, undefined, state);
      return;
    case 'tuple':
      if (!Array.isArray(value)) return;
      for (let i = 0; i < value.length; i++) {
        const slot = tupleItem(def, i);
        if (slot && holdsKeys(value[i])) walk(slot, value[i], { parent: at, key: i }, depth + 1, undefined, state);
      }
      return;
    case 'union':
      return walkUnion(s, def, value, at, depth, state);
    case 'intersection':
      return walkIntersection(def, value, at, depth, form, state);
    default:
      // Anything else keeps the value as sent, or transforms it: no key of the sender is dropped silently.
      return;
  }
}

/**
 * Whether a value can hold a key a schema drops: an object or an array. Every other value is passed over
 * without a step (no schema kind strips anything from it), which spares a scalar field its place record.
 */
function holdsKeys(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/** A union: the variant its tag selects, or the first member that fits by keys and literals. */
function walkUnion(s: Schema, def: AnyDef, value: unknown, at: At | null, depth: number, state: State) {
  if (!isPlainObject(value) && !Array.isArray(value)) return;
  if (def.discriminator !== undefined) {
    if (!isPlainObject(value)) return;
    const variant = selectVariant(s, value, TAGS_AS_SENT);
    if (variant) walk(variant, value, at, depth, { union: s, tag: value[def.discriminator] }, state);
    return;
  }
  // Zod takes the first member that parses; the first that fits by keys and literals stands for it.
  const member = (def.options ?? []).find((o) => fits(o, value));
  if (member) walk(member, value, at, depth, { union: s, member }, state);
}

const TAGS_AS_SENT = Object.freeze({ scalarText: false });

/** How the form is named: `kind = a` for a discriminated union's tag, `given flowName` for a plain union's member. */
function formLabel(form: Form): string | undefined {
  const { discriminator } = defOf(form.union);
  if (discriminator !== undefined) return `${discriminator} = ${tagValueText(form.tag)}`;
  return form.member && formOf(form.member);
}

/** An intersection: a key is lost only when both sides drop it. */
function walkIntersection(
  def: AnyDef,
  value: unknown,
  at: At | null,
  depth: number,
  form: Form | undefined,
  state: State,
) {
  // Each side strips on its own and the results are merged. Each side keeps every key it finds, since which of them both sides drop is known only after.
  const left: State = { found: [], more: 0, limit: Number.POSITIVE_INFINITY, steps: state.steps };
  if (def.left) walk(def.left, value, at, depth, form, left);
  const right: State = { found: [], more: 0, limit: Number.POSITIVE_INFINITY, steps: left.steps };
  if (def.right) walk(def.right, value, at, depth, form, right);
  state.steps = right.steps;
  const byHolder = new Map<object, Map<string, Found>>();
  for (const k of right.found) {
    let keys = byHolder.get(k.holder);
    if (!keys) {
      keys = new Map();
      byHolder.set(k.holder, keys);
    }
    keys.set(k.key, k);
  }
  for (const k of left.found) {
    const other = byHolder.get(k.holder)?.get(k.key);
    if (other) keep(state, { ...k, declared: [...new Set([...k.declared, ...other.declared])] });
  }
}

function keep(state: State, found: Found): void {
  if (state.found.length < state.limit) state.found.push(found);
  else state.more++;
}

/** The public record of a key found: its holder's path spelled out (done only for the keys kept). */
function publicKey(k: Found): StrippedKey {
  const path: PropertyKey[] = [];
  for (let at = k.at; at !== null; at = at.parent) path.push(at.key);
  path.reverse();
  const out: StrippedKey = { path, key: k.key, declared: k.declared };
  if (k.schema) out.hints = keyHints(k.schema);
  if (k.form) {
    const label = formLabel(k.form);
    if (label !== undefined) out.within = label;
    if (unionKeys(k.form.union).has(k.key)) out.otherForm = true;
  }
  return out;
}

// Per schema, read once: schemas are immutable, and a wide value asks for the same object's keys many times.
const declaredKeys = new WeakMap<object, readonly string[]>();
const unionKeySets = new WeakMap<object, ReadonlySet<string>>();

/** The keys an object schema declares. */
function declaredOf(object: Schema): readonly string[] {
  let keys = declaredKeys.get(object);
  if (!keys) {
    keys = Object.freeze(Object.keys(defOf(object).shape ?? {}));
    declaredKeys.set(object, keys);
  }
  return keys;
}

/** Every top-level key any member of a union declares. */
function unionKeys(union: Schema): ReadonlySet<string> {
  let keys = unionKeySets.get(union);
  if (!keys) {
    keys = new Set(shapeKeys(union));
    unionKeySets.set(union, keys);
  }
  return keys;
}

/**
 * Whether a union member could be the one the parse picks for `value`: the same kind of container and,
 * for an object, every required key present, every literal key matching, and (strict) no other key.
 */
function fits(option: Schema, value: unknown): boolean {
  if (acceptsOf(option).any) return true;
  const s = unwrap(option);
  if (!s) return true;
  const def = defOf(s);
  if (Array.isArray(value)) return def.type === 'array' || def.type === 'tuple';
  if (def.type === 'record' || def.type === 'intersection' || def.type === 'union') return true;
  if (def.type !== 'object' || !isPlainObject(value)) return false;
  const shape = def.shape ?? {};
  for (const [key, field] of Object.entries(shape)) {
    if (!Object.hasOwn(value, key)) {
      if (!isOptionalIn(field)) return false;
      continue;
    }
    const pinned = propValues(s, key);
    if (pinned && !pinned.has(value[key])) return false;
  }
  return !(def.catchall && isNever(def.catchall) && Object.keys(value).some((k) => !Object.hasOwn(shape, k)));
}

/** How a plain union member is named: by the keys it requires (`flowName`, `content + filename`). */
function formOf(member: Schema): string | undefined {
  const keys = requiredKeys(member);
  return keys.length > 0 ? `given ${keys.join(' + ')}` : undefined;
}
