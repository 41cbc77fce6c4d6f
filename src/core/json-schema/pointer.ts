// JSON Pointers (RFC 6901) into schema documents and JSON values.

/** Escapes one JSON Pointer reference token (RFC 6901 section 4). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Joins a parent JSON Pointer and reference tokens: `pointer('', 'properties', 'a~b')` is `/properties/a~0b`. */
export function pointer(parent: string, ...tokens: Array<string | number>): string {
  return parent + tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}
