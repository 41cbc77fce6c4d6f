/** Tools that declare `output`: validated once, sent as structuredContent, failures visible to hooks. */
import { defineTool } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallEvent } from '../../src/core/serve/options.js';
import { textOf, withClients } from '../support/server.js';

describe('output', () => {
  it('sends the parsed output as structuredContent, and a bad output as a masked isError that onCall/onError see', async () => {
    let parses = 0;
    const Out = z.object({ sum: z.number(), note: z.string().default('none') }).refine(() => ++parses > 0);
    const good = defineTool({ name: 'good', output: Out, handler: () => ({ sum: 3 }) });
    const bad = defineTool({
      name: 'bad',
      output: z.object({ sum: z.number() }),
      // @ts-expect-error the handler breaks its own output contract on purpose
      handler: () => ({ sum: 'nope' }),
    });
    const calls: CallEvent[] = [];
    const errors: unknown[] = [];
    await withClients(
      [good, bad],
      { observe: { onCall: (e) => calls.push(e), onError: (e) => errors.push(e) } },
      async (client) => {
        parses = 0;
        const ok = await client.callTool('good', {});
        expect(ok.isError ?? false).toBe(false);
        expect(ok.structuredContent).toEqual({ sum: 3, note: 'none' });
        expect(JSON.parse(textOf(ok))).toEqual({ sum: 3, note: 'none' });
        expect(parses).toBe(1);
        const no = await client.callTool('bad', {});
        expect(no.isError).toBe(true);
        // A server bug: masked for the client, in full for onError.
        expect(textOf(no)).toMatch(/^Tool bad failed \(error id [0-9a-f-]{36}\)$/);
        expect(calls.at(-1)).toMatchObject({ tool: 'bad', ok: false, errorId: expect.any(String) });
      },
    );
    expect(errors.length).toBe(2);
    expect((errors[0] as Error).message).toContain('sum: expected number, received string');
  });
});
