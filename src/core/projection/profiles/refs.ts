import { ANNOTATION_KEYWORDS, mapSubschemas, NEGATIVE_POSITIONS } from '../../json-schema/keywords.js';
import { setOwn } from '../../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../../json-schema/types.js';
import { type RefResolver, typeAtoms } from '../type-atoms.js';

/**
 * `doc` with every local `$ref` replaced by its target, expanded at most `depth` times along any path
 * (recursive definitions are all that is left after `inlineRefs`). Where the expansion stops, the `$ref`
 * becomes a node that says only the target's type (`{type: "object"}`): a SUPERSET, since whatever the
 * deeper levels hold is a value of that type. Siblings of a `$ref` other than annotations are dropped
 * (looser again). `$defs`/`definitions` are removed when no reference to them is left.
 */
export function unrollRefs(doc: JsonSchema, resolve: RefResolver, depth: number): JsonSchema {
  let unresolved = false;
  const expand = (node: unknown, chain: ReadonlyMap<string, number>): unknown => {
    if (!isPlainObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      const target = resolve(ref);
      if (!isPlainObject(target)) {
        unresolved = true;
        return node;
      }
      const seen = chain.get(ref) ?? 0;
      const annotations: JsonSchema = {};
      for (const key of Object.keys(node)) if (ANNOTATION_KEYWORDS.has(key)) setOwn(annotations, key, node[key]);
      if (seen >= depth) return { ...typeOnly(target, resolve), ...annotations };
      // The target may itself be a `$ref`: expanded again, with this one counted.
      return expand({ ...target, ...annotations }, new Map([...chain, [ref, seen + 1]]));
    }
    return mapSubschemas(node, (child, at) =>
      NEGATIVE_POSITIONS.has(at.keyword) || at.keyword === '$defs' || at.keyword === 'definitions'
        ? child
        : expand(child, chain),
    );
  };
  const out = expand(doc, new Map()) as JsonSchema;
  if (!unresolved) {
    delete out.$defs;
    delete out.definitions;
  }
  return out;
}

/** The types `schema` can have, as one `type` keyword; `{}` when they cannot be proven. */
function typeOnly(schema: unknown, resolve: RefResolver): JsonSchema {
  const atoms = typeAtoms(schema, resolve);
  if (atoms === 'any' || atoms.length === 0) return {};
  const hasNumber = atoms.some((a) => a.type === 'number');
  const types = [...new Set(atoms.map((a) => (a.type === 'integer' && hasNumber ? 'number' : a.type)))];
  const out: JsonSchema = { type: types.length === 1 ? types[0] : types };
  if (types.includes('array')) out.items = {};
  return out;
}
