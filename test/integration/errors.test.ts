/**
 * Masked errors, with both official clients over real HTTP: a handler's unexpected error never reaches the
 * client, which gets a generic text with an error id that `onError` also gets; a `ToolError` is an answer
 * meant for the model and arrives intact; `exposeErrors` shows the message; argument errors stay detailed.
 */
import { defineTool, type ErrorInfo, ToolError } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textOf, withClients } from '../support/server.js';

const leaky = defineTool({
  name: 'orders',
  input: z.object({ id: z.string() }),
  handler: () => {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432 (db password=hunter2)');
  },
});
const refusing = defineTool({
  name: 'ship',
  input: z.object({ id: z.string() }),
  handler: ({ input }) => {
    throw new ToolError(`Order ${input.id} has already shipped; use track_order instead`);
  },
});
const breaksOutput = defineTool({
  name: 'total',
  output: z.object({ sum: z.number() }),
  // @ts-expect-error the handler breaks its own output contract on purpose
  handler: () => ({ sum: 'secret-value' }),
});
const unsendable = defineTool({
  name: 'report',
  input: z.object({}),
  handler: () => ({ owner: { name: 'secret-name', pending: Promise.resolve('secret') } }),
});
const tools = [leaky, refusing, breaksOutput, unsendable];

describe('masked errors', () => {
  it("never sends a handler's unexpected error text; the id shown is the one onError saw", async () => {
    const seen: Array<[unknown, ErrorInfo]> = [];
    const events: Array<{ error?: string; errorId?: string }> = [];
    await withClients(
      tools,
      { observe: { onError: (e, info) => seen.push([e, info]), onCall: (e) => events.push(e) } },
      async (client) => {
        const result = await client.callTool('orders', { id: 'o-1' });
        expect(result.isError).toBe(true);
        const text = textOf(result);
        expect(text).not.toMatch(/hunter2|ECONNREFUSED|10\.0\.0\.7/);
        const id = /^Tool orders failed \(error id ([0-9a-f-]{36})\)$/.exec(text)?.[1];
        expect(id, text).toBeDefined();
        const [error, info] = seen.at(-1)!;
        expect((error as Error).message).toContain('hunter2');
        expect(info).toEqual({ phase: 'handler', tool: 'orders', errorId: id, requestId: expect.anything() });
        expect(events.at(-1)).toMatchObject({ tool: 'orders', ok: false, error: text, errorId: id });
      },
    );
    expect(new Set(seen.map(([, info]) => info.errorId)).size).toBe(2); // one id per failure
  });

  it("sends a ToolError's message intact, and does not report it as an error", async () => {
    const seen: unknown[] = [];
    await withClients(tools, { observe: { onError: (e) => seen.push(e) } }, async (client) => {
      const result = await client.callTool('ship', { id: 'o-9' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Order o-9 has already shipped; use track_order instead');
    });
    expect(seen).toEqual([]);
  });

  it('masks an output that breaks its schema, whose issues may quote the value', async () => {
    const seen: unknown[] = [];
    await withClients(tools, { observe: { onError: (e) => seen.push(e) } }, async (client) => {
      const text = textOf(await client.callTool('total', {}));
      expect(text).toMatch(/^Tool total failed \(error id [0-9a-f-]{36}\)$/);
    });
    expect((seen[0] as Error).message).toContain('sum: expected number, received string');
  });

  it('names where a result JSON cannot carry holds what, never its values; onError sees it under the same id', async () => {
    const seen: Array<[unknown, ErrorInfo]> = [];
    await withClients(tools, { observe: { onError: (e, info) => seen.push([e, info]) } }, async (client) => {
      const text = textOf(await client.callTool('report', {}));
      const id = /^Tool report failed \(error id ([0-9a-f-]{36})\): /.exec(text)?.[1];
      expect(text).toMatch(/: its result cannot be sent as JSON: owner\.pending is a Promise \(not awaited\?\)/);
      expect(text).not.toContain('secret');
      expect(seen.at(-1)?.[1]).toEqual({ phase: 'output', tool: 'report', errorId: id, requestId: expect.anything() });
    });
  });

  it('masks what extend.resolve throws, and sends its ToolError', async () => {
    const extend = (resolve: () => never) => ({
      arguments: { extend: { schema: z.object({ tenant: z.string() }), resolve } },
    });
    await withClients(
      [leaky],
      extend(() => {
        throw new Error('tenant table locked (dsn postgres://admin:hunter2@db)');
      }),
      async (client) => {
        const text = textOf(await client.callTool('orders', { id: 'o-1', tenant: 't' }));
        expect(text).toMatch(/^Tool orders failed \(error id /);
      },
    );
    await withClients(
      [leaky],
      extend(() => {
        throw new ToolError('Unknown tenant t; ask the user for their workspace');
      }),
      async (client) => {
        expect(textOf(await client.callTool('orders', { id: 'o-1', tenant: 't' }))).toBe(
          'Unknown tenant t; ask the user for their workspace',
        );
      },
    );
  });

  it('shows the message with the id under exposeErrors', async () => {
    await withClients(tools, { observe: { exposeErrors: true } }, async (client) => {
      const text = textOf(await client.callTool('orders', { id: 'o-1' }));
      expect(text).toMatch(/^Tool orders failed \(error id [0-9a-f-]{36}\): connect ECONNREFUSED .*hunter2/);
    });
  });

  it('keeps argument validation errors as detailed as before', async () => {
    await withClients(tools, {}, async (client) => {
      const result = await client.callTool('orders', { id: 42 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('id: expected string, received number');
    });
  });
});
