import { isPlainObject } from '../json-schema.js';
import { aKind, isObjectLike, show } from './schema-facts.js';

export type TagVerdict = { ok: true; key: string } | { ok: false; reason: string };

/**
 * Whether the branches of a union share a string literal tag: a property that every branch requires,
 * whose values are strings and differ between branches. That is what `flattenUnionInput` needs; when it
 * is missing, the verdict says why, in words an author can act on. Used for messages only; the flattener
 * has the final word, and its own reason (`CheckContext.unflattened`) is preferred when given.
 */
export function findStringTag(branches: unknown[], keyword: string): TagVerdict {
  const at = (i: number) => `${keyword}/${i}`;
  const nonObject = branches.findIndex((b) => !isObjectLike(b));
  if (nonObject >= 0) return { ok: false, reason: `variant ${at(nonObject)} is not an object, so there is no tag` };
  const objects = branches as Array<Record<string, any>>;
  const literals = (schema: unknown): unknown[] | undefined =>
    !isPlainObject(schema)
      ? undefined
      : 'const' in schema
        ? [schema.const]
        : Array.isArray(schema.enum)
          ? schema.enum
          : undefined;

  const candidates: string[] = [];
  for (const b of objects)
    for (const [key, schema] of Object.entries(b.properties ?? {}))
      if (literals(schema) && !candidates.includes(key)) candidates.push(key);
  if (candidates.length === 0) return { ok: false, reason: 'the variants share no literal tag property' };
  const inEvery = (key: string) =>
    objects.every((b) => isPlainObject(b.properties) && Object.hasOwn(b.properties, key));
  candidates.sort((a, b) => Number(inEvery(b)) - Number(inEvery(a)));

  const problems = candidates.map((key): TagVerdict => {
    const seen: unknown[] = [];
    for (const [i, b] of objects.entries()) {
      const schema = isPlainObject(b.properties) ? b.properties[key] : undefined;
      if (schema === undefined) return { ok: false, reason: `tag \`${key}\` is missing from variant ${at(i)}` };
      const values = literals(schema);
      if (!values) return { ok: false, reason: `tag \`${key}\` is not a literal in variant ${at(i)}` };
      const nonString = values.find((v) => typeof v !== 'string');
      if (nonString !== undefined)
        return { ok: false, reason: `tag \`${key}\` is not a string: ${show(nonString)} is ${aKind(nonString)}` };
      if (!Array.isArray(b.required) || !b.required.includes(key))
        return { ok: false, reason: `tag \`${key}\` is optional in variant ${at(i)}` };
      const repeated = values.find((v) => seen.includes(v));
      if (repeated !== undefined)
        return { ok: false, reason: `tag \`${key}\` has the value ${show(repeated)} in more than one variant` };
      seen.push(...values);
    }
    return { ok: true, key };
  });
  return problems.find((p) => p.ok) ?? problems[0]!;
}
