/**
 * The documents a mount can serve as a tool's `inputSchema`, one per kind of client
 * (docs/decisions/0014-per-client-projections.md):
 * - `faithful`: Zod's JSON Schema 2020-12 document, with `$schema`, `$defs` and `$ref` kept, relaxed only
 *   where the superset rule needs it (intersections). For capable clients; the default without flattening.
 * - `flat`: `$ref`s inlined and unions flattened into one typed object (`flattenUnionInput: true`).
 * - one per client profile: `flat`, then the rewrites that client needs (docs/design/projections.md).
 * @internal exported for its tests alone
 */
export const PROFILE_PROJECTION_NAMES = ['anthropic', 'openai-strict', 'gemini', 'cursor', 'local-grammar'] as const;
export const PROJECTION_NAMES = ['faithful', 'flat', ...PROFILE_PROJECTION_NAMES] as const;

export type ProjectionName = (typeof PROJECTION_NAMES)[number];
export type ProfileProjection = (typeof PROFILE_PROJECTION_NAMES)[number];

export function isProjectionName(value: unknown): value is ProjectionName {
  return typeof value === 'string' && (PROJECTION_NAMES as readonly string[]).includes(value);
}

export function isProfileProjection(name: ProjectionName): name is ProfileProjection {
  return (PROFILE_PROJECTION_NAMES as readonly string[]).includes(name);
}
