/**
 * The heap stays flat under sustained load on every Node adapter: 20,000 requests of a mixed load (both
 * eras; tools/list, valid, repaired and invalid calls) over 100 keep-alive connections, with the server's
 * heap read after full collections. Bounded by count, not time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type SoakServer, startSoakServer } from './load.js';

const MiB = 2 ** 20;
const TOTAL = 20_000;
const WARMUP = 2_000;
const CONNECTIONS = 100;

describe('heap under sustained keep-alive load', () => {
  let server: SoakServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  for (const adapter of ['hono', 'express', 'fetch']) {
    it(`${adapter}: grows by at most 16 MiB from request ${WARMUP} to request ${TOTAL}`, async () => {
      server = await startSoakServer(adapter);
      expect(await server.drive(WARMUP, CONNECTIONS)).toEqual([]);
      const first = await server.heap();
      expect(await server.drive(TOTAL - WARMUP, CONNECTIONS)).toEqual([]);
      const last = await server.heap();
      console.info(
        `soak ${adapter}: heap ${(first / MiB).toFixed(1)} MiB at 2,000 requests, ${(last / MiB).toFixed(1)} MiB at 20,000`,
      );
      expect((last - first) / MiB).toBeLessThanOrEqual(16);
    }, 180_000);
  }
});
