/**
 * A gzip body (RFC 1952) made of a large part deflated once and a small per-request tail, without deflating the
 * large part again: the cached part is the gzip header and a raw deflate stream ended by a sync flush (so it
 * ends on a byte boundary, no block final); each request appends its tail as stored deflate blocks, the last
 * one final, then the CRC-32 (the cached part's, continued over the tail) and the length. One gzip member, as
 * every decoder reads (Python's httpx reads only the first member of several).
 *
 * The core is web-standard: zlib is looked up at run time (`process.getBuiltinModule`: Node 20.16 and later,
 * Bun, Deno), never imported, so a Worker bundle holds none of it; where there is none, nothing is compressed.
 */

/** The part of node:zlib used here. */
interface Zlib {
  deflateRawSync(data: Uint8Array, options: { finishFlush: number }): Uint8Array;
  crc32?(data: Uint8Array, value?: number): number;
  constants: { Z_SYNC_FLUSH: number };
}

let loaded: Zlib | null | undefined;

/** node:zlib where the runtime has it, else null (workerd without `nodejs_compat`, a browser). Looked up once. */
export function zlib(): Zlib | null {
  if (loaded !== undefined) return loaded;
  try {
    const lookUp = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
      ?.getBuiltinModule;
    const found = lookUp?.('node:zlib') as Zlib | undefined;
    loaded = typeof found?.deflateRawSync === 'function' ? found : null;
  } catch {
    loaded = null;
  }
  return loaded;
}

/** A gzip member's start: its header and a sync-flushed raw deflate of some bytes, with their CRC and length. */
export interface GzipStart {
  readonly bytes: Uint8Array;
  readonly crc: number;
  readonly length: number;
}

/**
 * The gzip start of `chunks` joined, deflated once. `zlib` must be `zlib()`'s (not null). The bytes are the
 * start's own buffer: a request copies them (`gzipWith`), never sends them.
 */
export function gzipStart(chunks: readonly Uint8Array[], zlib: Zlib): GzipStart {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  const deflated = zlib.deflateRawSync(joined, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const bytes = new Uint8Array(HEADER.byteLength + deflated.byteLength);
  bytes.set(HEADER);
  bytes.set(deflated, HEADER.byteLength);
  return { bytes, crc: zlib.crc32 ? zlib.crc32(joined) : crc32(joined), length };
}

/**
 * One gzip member: `start`, then `tail` as stored deflate blocks (at most 65535 bytes each, the last final),
 * then the CRC-32 and size of everything it decompresses to. Costs a copy of the compressed start and of the
 * tail: the large part is never deflated or checksummed again.
 */
export function gzipWith(start: GzipStart, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const blocks = Math.max(1, Math.ceil(tail.byteLength / MAX_STORED));
  const out = new Uint8Array(start.bytes.byteLength + blocks * 5 + tail.byteLength + 8);
  out.set(start.bytes);
  let at = start.bytes.byteLength;
  for (let block = 0; block < blocks; block++) {
    const part = tail.subarray(block * MAX_STORED, (block + 1) * MAX_STORED);
    // BFINAL on the last block, BTYPE 00 (stored); the rest of the byte is padding, as the start ends aligned.
    out[at++] = block === blocks - 1 ? 1 : 0;
    out[at++] = part.byteLength & 0xff;
    out[at++] = part.byteLength >>> 8;
    out[at++] = ~part.byteLength & 0xff;
    out[at++] = (~part.byteLength >>> 8) & 0xff;
    out.set(part, at);
    at += part.byteLength;
  }
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(at, crc32(tail, start.crc), true);
  view.setUint32(at + 4, (start.length + tail.byteLength) >>> 0, true);
  return out;
}

/** ID1 ID2, CM 8 (deflate), no flags, no MTIME, no XFL, OS 255 (unknown). */
const HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const MAX_STORED = 0xffff;

let table: Uint32Array | undefined;

/**
 * CRC-32 (ISO 3309, as gzip uses) of `bytes`, continuing `crc` (the CRC of what came before, 0 for none): the
 * same value as zlib's `crc32(bytes, crc)`. Byte at a time: per request it only reads a tail of tens of bytes.
 * @internal exported for its tests alone
 */
export function crc32(bytes: Uint8Array, crc = 0): number {
  table ??= crcTable();
  let c = ~crc;
  for (const byte of bytes) c = table[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function crcTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}
