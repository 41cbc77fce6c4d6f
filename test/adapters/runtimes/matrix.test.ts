/**
 * The cross-adapter matrix: the same scripted session, with both official clients, against the
 * four adapters serving the shared example tools, each on its real runtime: Hono and Express in-process on
 * Node, the Next.js example under `next start` (Node.js and Edge routes), the Worker example in workerd
 * (`wrangler dev`). The `tools/list` response bodies must be byte-identical, and every result the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp as createExpressApp } from '../../../examples/express/app.js';
import { createApp as createHonoApp } from '../../../examples/hono/app.js';
import { listen } from '../../support/server.js';
import { eras } from '../support/clients.js';
import { exampleAuth } from '../support/example-auth.js';
import { listenApp } from '../support/listen.js';
import { type RunningProcess, startNext, startWrangler } from '../support/processes.js';
import { checkTranscript, runSession, type Transcript } from '../support/session.js';

const stops: Array<() => Promise<void>> = [];
const endpoints: Record<string, string> = {};

beforeAll(async () => {
  const hono = await listen(createHonoApp().fetch);
  stops.push(hono.close);
  endpoints.hono = hono.url;
  // Its clients bring no token: they get the shared tools, like every other adapter's.
  const express = await listenApp(createExpressApp((await exampleAuth()).auth));
  stops.push(express.close);
  endpoints.express = express.url;
  const started: RunningProcess[] = await Promise.all([
    startNext(),
    startWrangler('examples/cloudflare-worker/wrangler.jsonc'),
  ]);
  for (const p of started) stops.push(p.stop);
  const [next, worker] = started as [RunningProcess, RunningProcess];
  endpoints['next (nodejs)'] = `${next.origin}/mcp`;
  endpoints['next (edge)'] = `${next.origin}/edge/mcp`;
  endpoints.workers = `${worker.origin}/mcp`;
});
afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
});

describe.each(eras.map((era) => [era]))('matrix with client %s', (era) => {
  const transcripts: Record<string, Transcript> = {};

  it('runs the scripted session against every adapter', async () => {
    for (const [adapter, url] of Object.entries(endpoints)) {
      transcripts[adapter] = await runSession(url, era);
      checkTranscript(transcripts[adapter]);
    }
    expect(Object.keys(transcripts)).toEqual(['hono', 'express', 'next (nodejs)', 'next (edge)', 'workers']);
  });

  it('gets byte-identical tools/list bodies from every adapter', () => {
    const reference = transcripts.hono!.listBody;
    expect(reference.length).toBeGreaterThan(1000);
    for (const [adapter, t] of Object.entries(transcripts)) {
      expect(t.listBody, `${adapter} vs hono`).toBe(reference);
    }
  });

  it('gets the same result for every call from every adapter', () => {
    const reference = transcripts.hono!.outcomes;
    for (const [adapter, t] of Object.entries(transcripts)) {
      expect(t.outcomes, `${adapter} vs hono`).toEqual(reference);
    }
  });
});
