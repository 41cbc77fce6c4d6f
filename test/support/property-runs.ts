/**
 * How many runs the long property tests make: one setting for all of them, MCP_MOUNT_PROPERTY_RUNS.
 *
 * - `full`: every property runs the count its file names (`npm run test:properties`, the `properties`
 *   project in vitest.config.ts; CI runs it).
 * - `quick` (the default, `npm test`): a fifth of that, at least `min`. The seeds are fixed and
 *   fast-check draws run i from the seed the same way whatever the count, so the quick runs are the
 *   first fifth of the full ones.
 * - a positive number: that multiple of the full count (`MCP_MOUNT_PROPERTY_RUNS=5` for a long
 *   exploration; the files' own *_SEED variables try other seeds).
 *
 * A file's own count variable (FLATTEN_PROPERTY_RUNS and the like) still wins over this one.
 */

const QUICK = 0.2;

function scale(): number {
  const setting = process.env.MCP_MOUNT_PROPERTY_RUNS?.trim() || 'quick';
  if (setting === 'quick') return QUICK;
  if (setting === 'full') return 1;
  const factor = Number(setting);
  if (!Number.isFinite(factor) || factor <= 0) {
    throw new Error(`MCP_MOUNT_PROPERTY_RUNS must be quick, full or a positive number, not ${JSON.stringify(setting)}`);
  }
  return factor;
}

/** The run count for a property whose full count is `full`: never below `min` (nor below 1). */
export function propertyRuns(full: number, min = 1): number {
  return Math.max(min, 1, Math.round(full * scale()));
}
