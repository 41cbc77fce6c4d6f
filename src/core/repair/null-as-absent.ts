// `null` sent for a key that may be left out and cannot be null: read as the key left out.
//
// Clients that need every key present (OpenAI strict mode lists every key in `required`, optional ones
// made nullable) send null for a key the model means to leave out: an optional key, or, in a flattened
// union, a key only other variants declare. Where the original schema lets the key be missing and refuses
// null for it, null can only fail the parse, and leaving the key out is the one reading under which the
// call can pass: so the key is omitted before the one Zod parse.

import { shapeField } from '../zod/child-schemas.js';
import { defOf, isNever, isOptionalIn, isSchema } from '../zod/def.js';
import { recordKeyOptional, recordRefusesKey } from '../zod/record-keys.js';
import { AndSel, acceptsSel, OrSel, type Sel } from './selection.js';

/**
 * True when `null` at key `key` of an object described by `container` (a structural selection) is to be
 * read as absent: the key's own schemas (`child`) accept neither null nor anything, and the key is
 * optional in the object schema(s) that declare it (for a plain union, in some member still in the
 * running; for an intersection, in every side that declares it). A record whose key schema takes every
 * key (`z.record(z.string(), ...)`) has every key optional; one with a finite key set (an enum) has its keys
 * optional when it is a `z.partialRecord` or its value schema is optional, and requires each of them
 * otherwise; one with checked keys cannot be told, so neither of the last two counts.
 */
export function nullMeansAbsent(container: Sel, key: string | number, child: Sel): boolean {
  const a = acceptsSel(child);
  if (a.any || a.null) return false;
  return typeof key === 'string' && optionalKey(container, key) === true;
}

/**
 * True when every object schema in `container` refuses `key` by name: a strict object that does not
 * declare it, as a strict variant of a discriminated union is for the keys only other variants declare, or
 * a record whose finite key set lacks it (a flattened union joins such a record's keys with another
 * variant's). `null` there can only fail the parse and is read as absent. A strip object's undeclared key
 * is left alone: Zod drops it, so the call is valid as sent, and a valid call is never repaired; so is a
 * loose record's.
 */
export function undeclaredKey(container: Sel, key: string | number): boolean {
  if (container instanceof OrSel || container instanceof AndSel) {
    return container.of.length > 0 && container.of.every((s) => undeclaredKey(s, key));
  }
  if (typeof key !== 'string' || !isSchema(container)) return false;
  const def = defOf(container);
  if (def.type === 'record') return recordRefusesKey(def, key);
  if (def.type !== 'object' || shapeField(def, key) !== undefined) return false;
  return def.catchall !== undefined && isNever(def.catchall);
}

/** true: optional; false: declared and required; undefined: not declared by an object shape here. */
function optionalKey(sel: Sel, key: string): boolean | undefined {
  if (sel instanceof OrSel) {
    const verdicts = sel.of.map((s) => optionalKey(s, key));
    return verdicts.includes(true) ? true : verdicts.includes(false) ? false : undefined;
  }
  if (sel instanceof AndSel) {
    const verdicts = sel.of.map((s) => optionalKey(s, key)).filter((v) => v !== undefined);
    if (verdicts.length === 0) return undefined;
    return verdicts.every((v) => v);
  }
  if (!isSchema(sel)) return undefined;
  const def = defOf(sel);
  if (def.type === 'record') return recordKeyOptional(def, key);
  if (def.type !== 'object') return undefined;
  const field = shapeField(def, key);
  return field === undefined ? undefined : isOptionalIn(field);
}
