/**
 * The whole pipeline by property, over real HTTP: random Zod schemas (test/unit/projection/arbitraries.ts:
 * unions nested up to 4 deep with every collision kind, tagged by strings, numbers, booleans, null or a
 * mix, records, tuples, intersections, reused `$defs`)
 * are mounted with `flattenUnionInput: true`, one at a time, behind ONE long-lived HTTP server whose fetch
 * delegates to the current mount. Every value the ORIGINAL schema accepts is sent through a real client
 * (alternating v2 and v1) and must (1) pass Ajv on the served schema, (2) not be isError, and (3) reach the
 * handler deep-equal to `schema.parse(value)` (the arbitraries build no transforms, so one parse is the
 * reference). Schemas whose root cannot be served (arrays, scalars, untagged root unions) are skipped and
 * counted.
 *
 * Fixed seed (HTTP_PROPERTY_SEED=<n> to try another). HTTP_PROPERTY_RUNS=<n> mounts more schemas (each with
 * VALUES_PER_SCHEMA values; otherwise 110, scaled by MCP_MOUNT_PROPERTY_RUNS: test/support/property-runs.ts).
 */
import fc from 'fast-check';
import { createMcpFetchHandler, type McpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectors, type McpClient } from '../../examples/shared/clients.js';
import { ajvCheck, call, caseTool, reveal } from '../support/cases.js';
import { propertyRuns } from '../support/property-runs.js';
import { listen, type Running } from '../support/server.js';
import { zodCaseArb } from '../unit/projection/arbitraries.js';

const SEED = Number(process.env.HTTP_PROPERTY_SEED ?? 20_260_729);
const RUNS = Number(process.env.HTTP_PROPERTY_RUNS ?? propertyRuns(110));
const VALUES_PER_SCHEMA = 6;
const MIN_PAIRS = Math.min(500, Math.floor((RUNS * VALUES_PER_SCHEMA) / 2));

const stats = {
  schemas: 0,
  skippedRoots: 0,
  pairs: 0,
  rejectedByZod: 0,
  v2: 0,
  v1: 0,
  /** Served schemas with a union tagged by numbers, booleans, null or a mix, and the calls made to them. */
  nonStringTags: 0,
  nonStringTagPairs: 0,
  ms: 0,
  mountMs: 0,
  callMs: 0,
};

/** A union in the schema is tagged by values other than strings (its label names the pool's kind). */
const NON_STRING_TAG = /\((?:kind|type|t|op|mode): (?:number|boolean|mixed)\)\[/;
const silent = { warn: () => {}, error: () => {} };

let current: McpFetchHandler;
let running: Running;
const clients: McpClient[] = [];

beforeAll(async () => {
  current = createMcpFetchHandler([], { observe: { logger: silent } });
  running = await listen((request) => current.fetch(request));
  for (const connect of connectors) clients.push(await connect(running.url));
});
afterAll(async () => {
  for (const c of clients.splice(0)) await c.close();
  await current.close();
  await running.close();
  console.log(`[http property] ${JSON.stringify(stats)}`);
});

describe('flatten + repair + parse over HTTP, by property', () => {
  it(`every value the original accepts reaches the handler as schema.parse(value) (seed ${SEED}, ${RUNS} schemas x ${VALUES_PER_SCHEMA} values)`, async () => {
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(zodCaseArb({ depth: 4, values: VALUES_PER_SCHEMA }), async ({ gen, values }) => {
        const t0 = performance.now();
        const mount = createMcpFetchHandler([caseTool('prop', gen.schema)], {
          flattenUnionInput: true,
          schemaValidation: { policy: 'warn' },
          observe: { logger: silent },
        });
        stats.mountMs += performance.now() - t0;
        const served = mount.report.tools.find((t) => t.name === 'prop');
        if (!served) {
          stats.skippedRoots++;
          await mount.close();
          return;
        }
        stats.schemas++;
        const nonStringTags = NON_STRING_TAG.test(gen.label);
        if (nonStringTags) stats.nonStringTags++;
        const previous = current;
        current = mount;
        await previous.close();
        for (const value of values) {
          const parsed = gen.schema.safeParse(value);
          if (!parsed.success) {
            stats.rejectedByZod++;
            continue;
          }
          const client = clients[stats.pairs % clients.length]!;
          stats.pairs++;
          if (nonStringTags) stats.nonStringTagPairs++;
          if (client === clients[0]) stats.v2++;
          else stats.v1++;
          const context = () =>
            `schema ${gen.label}\nvalue ${JSON.stringify(value)}\nserved ${JSON.stringify(served.inputSchema)} (${client.label})`;
          const verdict = ajvCheck(served.inputSchema, value);
          expect(verdict.ok, `Ajv refuses a value the original accepts: ${verdict.errors}\n${context()}`).toBe(true);
          const t1 = performance.now();
          const out = await call(client, 'prop', value);
          stats.callMs += performance.now() - t1;
          expect(out.isError, `isError for a value the original accepts: ${out.text}\n${context()}`).toBe(false);
          const expected = JSON.parse(JSON.stringify(reveal(parsed.data)));
          expect(out.received!.input, `handler input differs from schema.parse(value)\n${context()}`).toEqual(expected);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    stats.ms = Math.round(performance.now() - started);
    stats.mountMs = Math.round(stats.mountMs);
    stats.callMs = Math.round(stats.callMs);
    expect(stats.pairs).toBeGreaterThanOrEqual(MIN_PAIRS);
    expect(stats.v1).toBeGreaterThan(0);
    expect(stats.v2).toBeGreaterThan(0);
    expect(stats.nonStringTagPairs).toBeGreaterThan(0);
  }, 120_000);
});
