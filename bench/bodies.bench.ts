/**
 * What handing workerd a large response body costs, by the kind of body: `npx tsx bench/bodies.bench.ts`.
 * One Worker per kind answers every request with the same ~2.4 MB of JSON (200 entries of about 12 KB, the
 * size of the faithful `tools/list` at 200 tools), built once per isolate; only how the body is handed over
 * changes. Per request: workerd process CPU over BENCH_BATCH_MS (default 1000) of sequential requests, user
 * and system apart (system is mostly the kernel: socket writes and the page faults of fresh memory), median
 * of BENCH_ROUNDS (default 3). BENCH_KINDS picks kinds. Nothing here asserts a time (bench/README.md reads it).
 */
import { loadavg } from 'node:os';
import { median } from './median.js';
import { cpuPerRequest, type RequestCpu, startWorker } from './workerd/requests.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS ?? 1000);

/** Each kind's `fetch` body, with `bytes` (one Uint8Array), `parts` (the 200 entries, commas before all but the first) and `text` at hand. */
const KINDS: Record<string, string> = {
  trivial: `return json('{}');`,
  'one Uint8Array, built once': 'return json(bytes);',
  'one Blob, built once': 'return json(blob);',
  'a Blob of head, Blob, tail per request': `return json(new Blob(['{"a":', blob, '}']));`,
  'a Blob of the 200 entries per request': 'return json(new Blob(parts));',
  'one string, built once': 'return json(text);',
  'the Uint8Array copied per request': 'return json(bytes.slice());',
  'a stream of head, Uint8Array, tail': `return json(stream([encoder.encode('{"a":'), bytes, encoder.encode('}')]));`,
  'a stream of the 200 entries': 'return json(stream(parts));',
  'a Blob stream piped through JS': 'return json(piped(blob.stream()));',
};

function workerSource(body: string): string {
  return `const encoder = new TextEncoder();
    const entry = JSON.stringify({ properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => ['p' + i, { type: 'string' }])) });
    const parts = Array.from({ length: 200 }, (_, i) => encoder.encode((i > 0 ? ',' : '') + entry));
    const text = '[' + Array(200).fill(entry).join(',') + ']';
    const bytes = encoder.encode(text);
    const blob = new Blob([bytes]);
    const json = (b) => new Response(b, { headers: { 'content-type': 'application/json' } });
    const stream = (chunks) => new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
    const piped = (source) => {
      const reader = source.getReader();
      return new ReadableStream({ async pull(c) { const { done, value } = await reader.read(); if (done) c.close(); else c.enqueue(value); } });
    };
    export default { async fetch(request) { await request.text(); ${body} } };`;
}

const only = process.env.BENCH_KINDS?.split(',');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };

console.log(`Response bodies in workerd, ~2.4 MB, ms per request, median of ${ROUNDS} (load average ${load()})\n`);
const workers = [];
for (const [kind, body] of Object.entries(KINDS)) {
  if (only && kind !== 'trivial' && !only.some((o) => kind.includes(o))) continue;
  const worker = await startWorker(workerSource(body), '2026-01-20');
  await cpuPerRequest(worker, request, BATCH_MS / 4, 3);
  workers.push({ kind, worker, runs: [] as RequestCpu[] });
}
for (let round = 0; round < ROUNDS; round++) {
  for (const w of workers) w.runs.push(await cpuPerRequest(w.worker, request, BATCH_MS));
}
console.log('| body | process CPU | user / system | main thread user / system |\n| --- | --- | --- | --- |');
for (const { kind, worker, runs } of workers) {
  const m = (part: keyof RequestCpu) => median(runs.map((r) => r[part])).toFixed(2);
  console.log(`| ${kind} | ${m('ms')} | ${m('user')} / ${m('system')} | ${m('mainUser')} / ${m('mainSystem')} |`);
  await worker.dispose();
}
console.log(`\n(load average ${load()} at the end)`);
