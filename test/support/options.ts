import type { McpMountOptions } from 'mcp-mount';

const GROUPS: readonly string[] = ['repair', 'access', 'observe', 'limits', 'protocol'];

/**
 * Options laid over each other as a spread would, except that a group (`observe`, `access`, ...) given in
 * more than one is merged key by key: a test's `{ observe: { onError } }` keeps the helper's `onCall`.
 */
export function mergedOptions<S extends McpMountOptions<any, any>>(...layers: S[]): S {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const below = out[key];
      out[key] = GROUPS.includes(key) && below && value ? { ...below, ...value } : value;
    }
  }
  return out as S;
}
