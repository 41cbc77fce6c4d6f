// Placeholder until the profile rewrites land: every profile is served `flat` unchanged.
import type { JsonSchema } from '../../json-schema/types.js';
import { PROFILE_PROJECTION_NAMES, type ProfileProjection } from '../names.js';

export type ProfileProjectionName = ProfileProjection;
export const PROFILE_PROJECTIONS: readonly ProfileProjectionName[] = PROFILE_PROJECTION_NAMES;
export interface Narrowing {
  pointer: string;
  reason: string;
}
export function projectForProfile(
  _name: ProfileProjectionName,
  flat: JsonSchema,
): { schema: JsonSchema; narrowed: Narrowing[] } {
  return { schema: flat, narrowed: [] };
}
