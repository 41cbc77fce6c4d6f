/**
 * A count or limit given as a positive safe integer, else `fallback` when not given and there is one.
 * @throws TypeError naming the option (`limits.concurrency must be a positive integer, got 0`) otherwise.
 */
export function positiveInteger(name: string, value: unknown, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`mcp-mount: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
