import type { ProjectionName } from '../projection/names.js';

/**
 * One value per projection, built the first time it is asked for and then the same object every time, an
 * undefined one included: what a mount prepares on first use (docs/decisions/0026-projections-prepared-on-first-use.md).
 */
export function perProjection<T>(build: (projection: ProjectionName) => T): (projection: ProjectionName) => T {
  const built = new Map<ProjectionName, T>();
  return (projection) => {
    if (!built.has(projection)) built.set(projection, build(projection));
    return built.get(projection) as T;
  };
}
