/**
 * Cost of argument repair per KiB of arguments: `npx tsx bench/repair.bench.ts`.
 *
 * Four inputs per size (1, 16, 256, 4096 KiB of JSON), all with the same schema:
 * - clean:        valid arguments, nothing to repair (the cost every call pays);
 * - whole-text:   the `items` array sent as one JSON string (one parse + walk);
 * - nested-text:  every item's `tags` and `meta` sent as JSON strings, and `id` as "123";
 * - root-text:    the whole `arguments` object sent as one JSON string.
 * The text inputs run with `maxStringBytes: 8 MiB` so the 4096 KiB case is not refused by the
 * default 1 MiB limit. Prints a table of µs per KiB; linear cost shows as a flat row. A reference
 * row times `JSON.parse` of the same arguments text (what the transport already pays per call),
 * so the runtime's own per-KiB drift at large sizes (garbage collection) can be told apart.
 */
import { z } from 'zod';
import { repairArgs } from '../src/core/repair/index.js';

const schema = z.object({
  requestId: z.string(),
  items: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      tags: z.array(z.string()),
      meta: z.object({ score: z.number(), ok: z.boolean(), note: z.string().optional() }),
    }),
  ),
});

const SIZES_KIB = [1, 16, 256, 4096];
const LIMITS = { maxStringBytes: 8 * 1024 * 1024 };
const MIN_TIME_MS = Number(process.env.BENCH_MIN_MS ?? 1500);

function item(i: number) {
  return {
    id: i,
    name: `item-${i}`,
    tags: ['alpha', `t${i % 7}`],
    meta: { score: (i * 7.31) % 100, ok: i % 2 === 0, note: i % 3 === 0 ? 'has "quotes" and\nnewline' : undefined },
  };
}

function itemsOfSize(kib: number) {
  const items: ReturnType<typeof item>[] = [];
  let bytes = 20;
  while (bytes < kib * 1024) {
    const it = item(items.length);
    items.push(it);
    bytes += JSON.stringify(it).length + 1;
  }
  return items;
}

/** Arguments as the transport hands them over: parsed from the wire. */
const wire = (v: unknown) => JSON.parse(JSON.stringify(v));

function inputs(kib: number): Record<string, unknown> {
  const items = itemsOfSize(kib);
  const args = { requestId: 'r-1', items };
  return {
    clean: wire(args),
    'whole-text': wire({ requestId: 'r-1', items: JSON.stringify(items) }),
    'nested-text': wire({
      requestId: 'r-1',
      items: items.map((it) => ({
        ...it,
        id: String(it.id),
        tags: JSON.stringify(it.tags),
        meta: JSON.stringify(it.meta),
      })),
    }),
    'root-text': JSON.stringify(args),
  };
}

/**
 * Fastest run in µs, over runs until MIN_TIME_MS has passed. The minimum, not the median: other
 * load on the machine only ever adds time, so the fastest run is the closest to repair's own cost.
 */
function measure(run: () => void): number {
  for (let i = 0; i < 3; i++) run(); // warm-up
  // A running minimum: on a quiet machine the 1 KiB case runs ~10^5 times, too many to spread into Math.min.
  let fastest = Number.POSITIVE_INFINITY;
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < MIN_TIME_MS || runs < 5) {
    const t = performance.now();
    run();
    fastest = Math.min(fastest, (performance.now() - t) * 1000);
    runs++;
  }
  return fastest;
}

const kinds = ['clean', 'whole-text', 'nested-text', 'root-text', 'JSON.parse'];
const perKib: Record<string, number[]> = Object.fromEntries(kinds.map((k) => [k, []]));

console.log(`repair cost, µs per KiB of arguments (fastest run) (node ${process.version})\n`);
console.log(['input'.padEnd(13), ...SIZES_KIB.map((s) => `${s} KiB`.padStart(11)), '4096/16'.padStart(9)].join(''));
for (const kib of SIZES_KIB) {
  const byKind = inputs(kib);
  for (const k of kinds) {
    if (k === 'JSON.parse') {
      // Reference: the transport's own parse of the same (clean) arguments text.
      const text = JSON.stringify(byKind.clean);
      perKib[k]!.push(measure(() => JSON.parse(text)) / (text.length / 1024));
      continue;
    }
    const sent = byKind[k];
    const bytes = typeof sent === 'string' ? sent.length : JSON.stringify(sent).length;
    // Sanity: the repaired value must parse, so the bench measures real, successful repairs.
    const check = repairArgs(sent, schema, LIMITS);
    if (check.issues.length > 0 || !schema.safeParse(check.value).success)
      throw new Error(`${k} @ ${kib} KiB did not repair`);
    const us = measure(() => repairArgs(sent, schema, LIMITS));
    perKib[k]!.push(us / (bytes / 1024));
  }
}
for (const k of kinds) {
  const row = perKib[k]!;
  const ratio = row[3]! / row[1]!;
  console.log([k.padEnd(13), ...row.map((v) => v.toFixed(2).padStart(11)), ratio.toFixed(2).padStart(9)].join(''));
}
console.log('\nThe last column is cost per KiB at 4096 KiB over 16 KiB: 1 would be perfectly linear. The');
console.log('JSON.parse row is the runtime itself on the same data, for comparison of the large-heap drift.');
