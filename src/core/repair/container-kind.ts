export type ContainerKind = 'array' | 'object';

/** The kind of container the walk enters: an array, or a plain JSON object (not a class instance). */
export function containerKind(value: unknown): ContainerKind | undefined {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) return 'object';
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === null) return 'object';
  return undefined;
}
