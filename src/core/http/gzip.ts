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

/** The part of node:zlib used here (`crc32`: Node 20.15 and later, as `getBuiltinModule`). */
interface Zlib {
  deflateRawSync(data: Uint8Array, options: { finishFlush: number }): Uint8Array;
  crc32(data: Uint8Array, value?: number): number;
  constants: { Z_SYNC_FLUSH: number };
}

/**
 * node:zlib where the runtime has it (with `crc32`), else undefined (workerd without `nodejs_compat`, a
 * browser). `getBuiltinModule` is a lookup in Node's own table: cheap enough per list.
 */
export function zlib(): Zlib | undefined {
  const found: Zlib | undefined = (globalThis as any).process?.getBuiltinModule?.('node:zlib');
  return found?.crc32 ? found : undefined;
}

/** A gzip member's start: its header and a sync-flushed raw deflate of some bytes, with their CRC and length. */
export interface GzipStart {
  readonly bytes: Uint8Array;
  readonly crc: number;
  readonly length: number;
  readonly zlib: Zlib;
}

/**
 * The gzip start of `chunks` joined, deflated once with `zlib` (`zlib()`'s). The bytes are the start's own
 * buffer: a request copies them (`gzipWith`), never sends them.
 */
export function gzipStart(chunks: readonly Uint8Array[], zlib: Zlib): GzipStart {
  const joined = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  const deflated = zlib.deflateRawSync(joined, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  // ID1 ID2, CM 8 (deflate), no flags, no MTIME, no XFL, OS 255 (unknown).
  const bytes = new Uint8Array(10 + deflated.byteLength);
  bytes.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  bytes.set(deflated, 10);
  return { bytes, crc: zlib.crc32(joined), length: joined.byteLength, zlib };
}

/**
 * One gzip member: `start`, then `tail` as stored deflate blocks (at most 65535 bytes each, the last final),
 * then the CRC-32 and size of everything it decompresses to. Costs a copy of the compressed start and of the
 * tail: the large part is never deflated or checksummed again.
 */
export function gzipWith(start: GzipStart, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const blocks = Math.ceil(tail.byteLength / 0xffff) || 1;
  const out = new Uint8Array(start.bytes.byteLength + blocks * 5 + tail.byteLength + 8);
  out.set(start.bytes);
  const view = new DataView(out.buffer);
  let at = start.bytes.byteLength;
  for (let block = 0; block < blocks; block++) {
    const part = tail.subarray(block * 0xffff, (block + 1) * 0xffff);
    // BFINAL on the last block, BTYPE 00 (stored), the rest of the byte padding (the start ends aligned);
    // then LEN and its complement NLEN.
    out[at] = block === blocks - 1 ? 1 : 0;
    view.setUint16(at + 1, part.byteLength, true);
    view.setUint16(at + 3, ~part.byteLength, true);
    out.set(part, at + 5);
    at += 5 + part.byteLength;
  }
  // Node 20's crc32 answers 0 for some empty views, whatever the CRC it is to continue.
  view.setUint32(at, tail.byteLength ? start.zlib.crc32(tail, start.crc) : start.crc, true);
  view.setUint32(at + 4, start.length + tail.byteLength, true);
  return out;
}
