/**
 * Which keys of a value the original schema would silently drop, read from its definition (no parse):
 * a plain `z.object` strips every key it does not declare, and the handler never learns it was sent. The
 * walk follows the value the way the parse would: declared fields, catch-alls, record values, array and
 * tuple items, the variant a tag selects, the first member of a plain union that fits, both sides of an
 * intersection. Strict objects are left to their own "unrecognized key" error, loose ones keep the key.
 */
import { isPlainObject } from '../json-schema/types.js';
import { acceptsOf } from './accepted-kinds.js';
import { shapeField, tupleItem } from './child-schemas.js';
import { defOf, isNever, isOptionalIn, propValues, type Schema, unwrap } from './def.js';
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
  /** Which form of a union the object was read as: `kind = a`, or `given flowName` (the member that fit). */
  within?: string;
  /** Another member of that union declares the key: it belongs to another form, not misspelt. */
  otherForm?: boolean;
}

/** The union an object is read through: its label and every key any of its members declares. */
interface Form {
  label?: string;
  keys: ReadonlySet<string>;
}

/** Values nested deeper than this are not looked into (the parse still checks them). */
const MAX_DEPTH = 128;

/** Every key of `value` that `schema` would strip, in the order met. Never throws. */
export function strippedKeys(schema: Schema, value: unknown): StrippedKey[] {
  const out: StrippedKey[] = [];
  try {
    walk(schema, value, [], undefined, out);
  } catch {
    // A throwing getter or lazy: nothing to say, the parse reports what it finds.
    return [];
  }
  return out;
}

function walk(schema: Schema, value: unknown, path: PropertyKey[], form: Form | undefined, out: StrippedKey[]) {
  if (path.length > MAX_DEPTH) return;
  const s = unwrap(schema);
  if (!s) return;
  const def = defOf(s);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return;
      const declared = Object.keys(def.shape ?? {});
      for (const key of Object.keys(value)) {
        const field = shapeField(def, key);
        if (field) walk(field, value[key], [...path, key], undefined, out);
        // A key sent as null carries nothing to lose: a strict-mode client sends every key it was shown,
        // null for those it means to leave out (another variant's, for a flattened union).
        else if (def.catchall === undefined) {
          if (value[key] !== null) out.push(stripped(path, key, declared, form));
        }
        else if (!isNever(def.catchall)) walk(def.catchall, value[key], [...path, key], undefined, out);
      }
      return;
    }
    case 'record':
      if (!isPlainObject(value) || !def.valueType) return;
      for (const key of Object.keys(value)) {
        if (recordTakesKey(def, key) !== false) walk(def.valueType, value[key], [...path, key], undefined, out);
      }
      return;
    case 'array':
      if (!Array.isArray(value) || !def.element) return;
      for (const [i, item] of value.entries()) walk(def.element, item, [...path, i], undefined, out);
      return;
    case 'tuple':
      if (!Array.isArray(value)) return;
      value.forEach((item, i) => {
        const slot = tupleItem(def, i);
        if (slot) walk(slot, item, [...path, i], undefined, out);
      });
      return;
    case 'union': {
      if (!isPlainObject(value) && !Array.isArray(value)) return;
      if (def.discriminator !== undefined) {
        if (!isPlainObject(value)) return;
        const variant = selectVariant(s, value, { scalarText: false });
        const tag = value[def.discriminator];
        const label = `${def.discriminator} = ${typeof tag === 'string' ? tag : JSON.stringify(tag)}`;
        if (variant) walk(variant, value, path, { label, keys: keysOf(def.options ?? []) }, out);
        return;
      }
      // Zod takes the first member that parses; the first that fits by keys and literals stands for it.
      const member = (def.options ?? []).find((o) => fits(o, value));
      if (member) walk(member, value, path, { label: formOf(member), keys: keysOf(def.options ?? []) }, out);
      return;
    }
    case 'intersection': {
      // Each side strips on its own and the results are merged: a key is lost only when both sides drop it.
      const left: StrippedKey[] = [];
      const right: StrippedKey[] = [];
      if (def.left) walk(def.left, value, path, form, left);
      if (def.right) walk(def.right, value, path, form, right);
      const id = (k: StrippedKey) => JSON.stringify([...k.path.map(String), k.key]);
      const dropped = new Set(right.map(id));
      const declared = (k: StrippedKey) => [...k.declared, ...(right.find((r) => id(r) === id(k))?.declared ?? [])];
      for (const k of left) if (dropped.has(id(k))) out.push({ ...k, declared: [...new Set(declared(k))] });
      return;
    }
    default:
      // Anything else keeps the value as sent, or transforms it: no key of the sender is dropped silently.
      return;
  }
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

function stripped(path: PropertyKey[], key: string, declared: readonly string[], form: Form | undefined): StrippedKey {
  const out: StrippedKey = { path, key, declared };
  if (form?.label !== undefined) out.within = form.label;
  if (form?.keys.has(key)) out.otherForm = true;
  return out;
}

/** Every top-level key any of the members declares. */
function keysOf(options: readonly Schema[]): ReadonlySet<string> {
  return new Set(options.flatMap((o) => shapeKeys(o)));
}

/** How a plain union member is named: by the keys it requires (`flowName`, `content + filename`). */
function formOf(member: Schema): string | undefined {
  const keys = requiredKeys(member);
  return keys.length > 0 ? `given ${keys.join(' + ')}` : undefined;
}
