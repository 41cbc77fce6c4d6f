/**
 * The gzip body of a cached start and a per-request tail (gzip.ts): it decompresses to the start's bytes then
 * the tail's, as one gzip member a strict single-member decoder reads to its end, with the CRC-32 and size of
 * the whole; the start is deflated once and only the tail is added per body.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as nodeZlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipStart, gzipWith, zlib } from '../../../src/core/http/gzip.js';
import { strictGunzip } from '../../support/strict-gunzip.js';

const text = (s: string) => new TextEncoder().encode(s);

/** Bytes that compress (repeated JSON) with some that do not (pseudo-random), `n` of each kind roughly. */
function sample(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n * 2);
  out.set(text('{"name":"tool","inputSchema":{"type":"object"}},'.repeat(Math.ceil(n / 48))).subarray(0, n));
  let x = seed;
  for (let i = n; i < 2 * n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const concat = (...parts: Uint8Array[]) => Buffer.concat(parts);

const PYTHON_READS_ONE_MEMBER =
  'import sys, zlib\n' +
  // httpx's GZipDecoder: one decompressobj for one member; what follows it would be dropped.
  'd = zlib.decompressobj(zlib.MAX_WBITS | 16)\n' +
  'out = d.decompress(sys.stdin.buffer.read()) + d.flush()\n' +
  'assert d.eof and d.unused_data == b"", (d.eof, len(d.unused_data))\n' +
  'sys.stdout.buffer.write(out)\n';

const python = (() => {
  try {
    execFileSync('python3', ['-c', 'import zlib'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('gzip of a cached start and a per-request tail', () => {
  const found = zlib();

  it('finds node:zlib through process.getBuiltinModule in Node', () => {
    expect(found?.deflateRawSync).toBe(nodeZlib.deflateRawSync);
  });

  it.each([
    ['a JSON head and tail', [text('{"result":{"tools":['), sample(5000)], text('],"jsonrpc":"2.0","id":"é7"}')],
    ['an empty tail', [sample(300)], new Uint8Array(0)],
    ['an empty start', [], text('}')],
    ['a tail longer than one stored block', [sample(1000)], sample(70_000, 7)],
    ['a tail of exactly one full stored block', [text('x')], sample(32_768, 3).subarray(0, 65_535)],
  ])('decodes to the start then the tail, as one member, with %s', (_name, chunks, tail) => {
    const start = gzipStart(chunks, found!);
    const body = gzipWith(start, tail);
    const whole = concat(...chunks, tail);
    expect(nodeZlib.gunzipSync(body).equals(whole)).toBe(true);
    expect(strictGunzip(body).equals(whole)).toBe(true);
  });

  it('reuses the start for each tail: bodies differ only after it', () => {
    const start = gzipStart([sample(20_000)], found!);
    const before = Buffer.from(start.bytes);
    for (const id of ['1', '"Ωμέγα 🦄"', '12345678901234567890']) {
      const body = gzipWith(start, text(`,"id":${id}}`));
      expect(Buffer.from(body.subarray(0, start.bytes.length)).equals(before)).toBe(true);
      expect(
        nodeZlib
          .gunzipSync(body)
          .toString('latin1')
          .endsWith(Buffer.from(`,"id":${id}}`).toString('latin1')),
      ).toBe(true);
    }
    expect(Buffer.from(start.bytes).equals(before)).toBe(true);
  });

  it.skipIf(!python)('is read whole by a decoder that reads only the first gzip member (as httpx does)', () => {
    const chunks = [text('event: message\ndata: {"result":{"tools":['), sample(40_000)];
    const tail = text(']},"jsonrpc":"2.0","id":"ключ"}\n\n');
    const body = gzipWith(gzipStart(chunks, found!), tail);
    const run = spawnSync('python3', ['-c', PYTHON_READS_ONE_MEMBER], { input: body });
    expect(run.stderr.toString()).toBe('');
    expect(run.stdout.equals(concat(...chunks, tail))).toBe(true);
  });
});
