/**
 * `validateMcpSchemas(...).tools` deep-equals what `tools/list` serves, for random schemas and
 * random option combinations (every projection, flattenUnionInput on/off, extend on/off, params on/off), over real HTTP with
 * both official clients. The probe and the mount share one preparation; this checks that nothing on the
 * serving path (SDK, transport, either era's codec) changes the documents.
 */
import fc from 'fast-check';
import { defineTool, type McpMountOptions, PROJECTION_NAMES, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler, type McpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectors } from '../../examples/shared/clients.js';
import { propertyRuns } from '../support/property-runs.js';
import { listen, type Running } from '../support/server.js';
import { rootArb } from '../unit/projection/arbitraries.js';

const RUNS = Number(process.env.PROBE_LIST_RUNS ?? propertyRuns(40, 20));
const silent = { warn: () => {}, error: () => {} };
let current: McpFetchHandler;
let running: Running;

beforeAll(async () => {
  current = createMcpFetchHandler([], { observe: { logger: silent } });
  running = await listen((request) => current.fetch(request));
});
afterAll(() => running.close());

describe('validateMcpSchemas agrees with tools/list', () => {
  it(`for ${RUNS} random schemas and option combinations`, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(rootArb(3), { minLength: 1, maxLength: 3 }),
        fc.record({
          flatten: fc.boolean(),
          projection: fc.constantFrom(undefined, ...PROJECTION_NAMES),
          extend: fc.boolean(),
          params: fc.boolean(),
          v1: fc.boolean(),
        }),
        async (gens, o) => {
          const tools = gens.map((gen, i) =>
            defineTool({
              name: `t${i}`,
              description: gen.label.slice(0, 80),
              params: o.params ? z.object({ pid: z.string() }) : undefined,
              input: gen.schema,
              handler: () => 'ok',
            }),
          );
          const options: McpMountOptions = {
            ...(o.projection ? { projection: o.projection } : { flattenUnionInput: o.flatten }),
            arguments: o.extend ? { extend: { schema: z.object({ tenantId: z.string() }) } } : undefined,
            schemaValidation: { policy: 'warn' },
            observe: { logger: silent },
          };
          const report = validateMcpSchemas(tools, options);
          current = createMcpFetchHandler(tools, options);
          const client = await connectors[o.v1 ? 1 : 0](running.url);
          try {
            const { tools: listed } = await client.listTools();
            expect(listed.map((t) => t.name)).toEqual(report.tools.map((t) => t.name));
            for (const tool of report.tools) {
              const served = listed.find((t) => t.name === tool.name)!;
              expect(served.inputSchema).toEqual(tool.inputSchema);
              compared++;
            }
          } finally {
            await client.close();
          }
        },
      ),
      { seed: 20261130, numRuns: RUNS },
    );
    expect(compared).toBeGreaterThan(RUNS / 2);
  }, 120_000);
});
