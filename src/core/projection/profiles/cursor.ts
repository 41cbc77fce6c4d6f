import { composeDescription } from '../annotations.js';
import { intersectionToNode, typeListToUntyped, unionToJoin } from './common.js';
import { withoutNull } from './nulls.js';
import type { Rewrite, Rewrites } from './walk.js';

const WHY = 'since Cursor rejects a type list with null and any anyOf/oneOf';

/**
 * NARROWING: `null` is taken out (a `type` list's, an `enum`'s, a nullable wrapper's branch). An optional
 * field says "none" by being left out; a required one keeps saying it in its description, and the
 * server still accepts null there (the original Zod schema parses the call).
 */
const dropNull: Rewrite = (node, ctx) => {
  const out = withoutNull(node);
  if (!out) return undefined;
  if (ctx.omittable) {
    ctx.narrow(`null is not served, ${WHY}; the key is optional: leave it out for none`);
    return out;
  }
  ctx.narrow(`null is not served, ${WHY}; the description says null is accepted`);
  const description = composeDescription([
    typeof out.description === 'string' ? out.description : undefined,
    'May be null.',
  ]);
  return { ...out, description };
};

/**
 * `cursor`: no `oneOf`/`anyOf`/`allOf` anywhere and no `type` list. Intersections become one object and
 * unions the typed join (SUPERSET), a `type` list of several types is dropped (SUPERSET), and null is taken
 * out of what is left (NARROWING).
 */
export const CURSOR: Rewrites = { pre: [intersectionToNode, unionToJoin, typeListToUntyped, dropNull] };
