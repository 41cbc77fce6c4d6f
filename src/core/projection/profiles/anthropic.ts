import { atRoot, intersectionToNode, unionToJoin } from './common.js';
import type { Rewrites } from './walk.js';

/**
 * `anthropic`: the Messages API refuses `oneOf`/`anyOf`/`allOf` at the top of `input_schema`, even beside
 * `type: "object"`. A root union becomes the typed join of its members, a root intersection one object
 * (both SUPERSET). Nothing below the root changes.
 */
export const ANTHROPIC: Rewrites = { pre: [atRoot(intersectionToNode), atRoot(unionToJoin)] };
