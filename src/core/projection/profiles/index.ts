// Client-profile projections: the flat document, rewritten so that one client family accepts it.
// Rules, kinds (superset or narrowing) and guarantees per profile: docs/design/projections.md.
import { cloneJson, cloneJsonOrSelf, withMemo } from '../../json-schema/compare.js';
import { isPlainObject, type JsonSchema } from '../../json-schema/types.js';
import type { ProfileProjection } from '../names.js';
import { localResolver, type RefResolver } from '../type-atoms.js';
import { ANTHROPIC } from './anthropic.js';
import { CURSOR } from './cursor.js';
import { GEMINI, GEMINI_RECURSION_DEPTH } from './gemini.js';
import { LOCAL_GRAMMAR, nameRootRecursion } from './local-grammar.js';
import { OPENAI_STRICT } from './openai-strict.js';
import { unrollRefs } from './refs.js';
import { type Narrowing, type Rewrites, rewriteTree } from './walk.js';

export type { Narrowing } from './walk.js';

const REWRITES: Readonly<Record<ProfileProjection, Rewrites>> = {
  anthropic: ANTHROPIC,
  'openai-strict': OPENAI_STRICT,
  gemini: GEMINI,
  cursor: CURSOR,
  'local-grammar': LOCAL_GRAMMAR,
};

/**
 * `flat` (the served document with `flattenUnionInput: true`) → this profile's document. Every rewrite is
 * a SUPERSET (accepts every value the input accepts) or a NARROWING that stays non-empty and admits only
 * values the input admits; each narrowing is returned in `narrowed`, by JSON Pointer into `schema`.
 * What the profile's checks still refuse is left for the probe to report. Presentation only: the original
 * Zod schema parses every call. Pure: never mutates `flat`, never throws, same input → same output; the
 * result shares nothing with `flat`. An unknown `name` returns a copy of `flat`.
 */
export function projectForProfile(
  name: ProfileProjection,
  flat: JsonSchema,
): { schema: JsonSchema; narrowed: Narrowing[] } {
  try {
    const rewrites = Object.hasOwn(REWRITES, name) ? REWRITES[name] : undefined;
    if (!isPlainObject(flat) || !rewrites) return { schema: cloneJson(flat), narrowed: [] };
    const narrowed: Narrowing[] = [];
    // Gemini resolves no `$ref`; the recursive ones inlineRefs left are expanded to a fixed depth first.
    // Local grammar engines resolve `#/$defs/<name>` only; a recursive root is named there first.
    const input =
      name === 'gemini'
        ? unrollRefs(flat, rootOrLocal(flat), GEMINI_RECURSION_DEPTH)
        : name === 'local-grammar'
          ? nameRootRecursion(flat)
          : flat;
    const schema = withMemo(() => rewriteTree(input, rewrites, localResolver(input), narrowed));
    return { schema: cloneJson(schema), narrowed };
  } catch {
    // Defensive only: a projection bug must not take the mount down. The input is served as it is, and the
    // profile's checks report what the client would refuse.
    return { schema: cloneJsonOrSelf(flat), narrowed: [] };
  }
}

/** Local definitions, and `#` itself: a recursive root (`z.lazy` at the top) refers to the document root. */
function rootOrLocal(doc: JsonSchema): RefResolver {
  const local = localResolver(doc);
  return (ref) => (ref === '#' ? doc : local(ref));
}
