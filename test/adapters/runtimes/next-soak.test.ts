/**
 * The heap stays flat on the Next.js adapter under the production server (`next build` output, served as
 * `next start` serves it): the same count-bounded soak as test/soak/heap.test.ts, 20,000 mixed requests over
 * 100 keep-alive connections. Lives with the runtime tests because it needs the Next.js build.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type SoakServer, startSoakServer } from '../../soak/load.js';

const MiB = 2 ** 20;

describe('Next.js heap under sustained keep-alive load', () => {
  let server: SoakServer | undefined;
  afterEach(async () => {
    await server?.stop();
  });

  it('grows by at most 16 MiB from request 2,000 to request 20,000', async () => {
    server = await startSoakServer('next');
    expect(await server.drive(2_000, 100)).toEqual([]);
    const first = await server.heap();
    expect(await server.drive(18_000, 100)).toEqual([]);
    const last = await server.heap();
    console.info(
      `soak next: heap ${(first / MiB).toFixed(1)} MiB at 2,000 requests, ${(last / MiB).toFixed(1)} MiB at 20,000`,
    );
    expect((last - first) / MiB).toBeLessThanOrEqual(16);
  }, 240_000);
});
