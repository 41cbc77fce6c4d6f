/**
 * Decodes `body` as exactly one gzip member, as a strict decoder does (httpx reads the first member only): the
 * header, a raw deflate stream whose final block ends exactly 8 bytes before the end, and a trailer holding the
 * CRC-32 and size of what it decodes to. Fails the test otherwise.
 */
import * as zlib from 'node:zlib';
import { expect } from 'vitest';

export function strictGunzip(body: Uint8Array): Buffer {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  expect([...bytes.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]);
  const deflate = bytes.subarray(10);
  const { buffer, engine } = zlib.inflateRawSync(deflate, { info: true }) as unknown as {
    buffer: Buffer;
    engine: { bytesWritten: number };
  };
  // The final block ends where the 8-byte trailer starts: nothing follows the member.
  expect(engine.bytesWritten).toBe(deflate.length - 8);
  expect(bytes.readUInt32LE(bytes.length - 8)).toBe(zlib.crc32(buffer));
  expect(bytes.readUInt32LE(bytes.length - 4)).toBe(buffer.length % 2 ** 32);
  return buffer;
}
