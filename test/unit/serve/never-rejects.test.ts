/** The core's `fetch` always resolves to a `Response`, and keeps serving after an internal failure. */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settleOptions } from '../../../src/core/serve/config.js';

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const add = defineTool({
  name: 'add',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ input }) => input.a + input.b,
});
const callAdd = (args: Record<string, unknown>) =>
  new Request('http://x/mcp', {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: args } }),
  });
const call = () => callAdd({ a: 1, b: 2 });

describe('a failure inside the core', () => {
  it('becomes a JSON-RPC 500 that hides the cause, onError sees the cause, and the next request is served', async () => {
    const seen: unknown[] = [];
    const logged: unknown[][] = [];
    const logger = { warn() {}, error: (...args: unknown[]) => logged.push(args) };
    const handler = createMcpFetchHandler([add], { observe: { logger, onError: (error) => seen.push(error) } });
    const broken = {
      get parsedBody(): unknown {
        throw new Error('secret internal detail');
      },
    };
    const response = await handler.fetch(call(), broken);
    expect(response.status).toBe(500);
    const text = await response.text();
    const { error } = JSON.parse(text);
    const id = /^Internal server error \(error id ([0-9a-f-]{36})\)$/.exec(error.message)?.[1];
    expect([error.code, id]).toEqual([-32603, expect.any(String)]);
    expect(text).not.toContain('secret');
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe('secret internal detail');
    // The operator's log has the cause under the id the client was shown.
    expect(logged).toEqual([[`mcp-mount: request error (error id ${id})`, seen[0]]]);

    const next = await handler.fetch(call());
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('"text":"3"');
  });

  it('answers 413 with Connection: close, since the rest of the body was never read', async () => {
    const handler = createMcpFetchHandler([add], { limits: { maxRequestBodyBytes: 16 } });
    const response = await handler.fetch(call());
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
  });
});

describe('options settled once', () => {
  it('refuses a value that cannot mean anything, naming the option', () => {
    expect(() => createMcpFetchHandler([add], { limits: { maxRequestBodyBytes: -1 } })).toThrow(/maxRequestBodyBytes/);
    expect(() => createMcpFetchHandler([add], { schemaValidation: { policy: 'loud' as never } })).toThrow(/policy/);
    expect(() => createMcpFetchHandler([add], { arguments: { unknownKeys: 'drop' as never } })).toThrow(/unknownKeys/);
    expect(() => createMcpFetchHandler([add], { arguments: { injectedKeys: 'toolCallId' as never } })).toThrow(
      /injectedKeys/,
    );
    expect(() => createMcpFetchHandler([add], { arguments: { hygiene: 'on' as never } })).toThrow(/arguments.hygiene/);
  });

  it("points a group's key given at the top level, or in another group, to where it belongs", () => {
    expect(() => settleOptions({ timeoutMs: 1000 } as never)).toThrow(
      /^mcp-mount: timeoutMs is not an option \(it is limits.timeoutMs\); the options are server, /,
    );
    expect(() => createMcpFetchHandler([add], { name: 'notes' } as never)).toThrow(/it is server.name/);
    // `validateMcpSchemas` takes the same options: the refusal is its invalid-option issue.
    expect(validateMcpSchemas([add], { auth: { verify: () => undefined } } as never).issues).toEqual([
      expect.objectContaining({
        code: 'invalid-option',
        message: expect.stringMatching(/^mcp-mount: auth is not an option \(it is access.auth\)/),
      }),
    ]);
  });

  it('refuses a key a group does not take, and a group that is not an object', () => {
    expect(() => settleOptions({ arguments: { jsn: true } } as never)).toThrow(
      'mcp-mount: arguments.jsn is not an option (did you mean arguments.json?); arguments takes json, scalars, nullAsAbsent, unknownKeys, injectedKeys, hygiene, extend',
    );
    expect(() => settleOptions({ access: { origin: [] } } as never)).toThrow(
      /^mcp-mount: access.origin is not an option \(did you mean access.origins\?\)/,
    );
    expect(() => settleOptions({ arguments: { onCall: () => {} } } as never)).toThrow(
      'mcp-mount: arguments.onCall is not an option; it is observe.onCall',
    );
    expect(() => settleOptions({ projection: { choose: 'auto', serves: ['flat'] } } as never)).toThrow(
      /^mcp-mount: projection.serves is not an option \(did you mean projection.serve\?\)/,
    );
    expect(() => settleOptions({ documents: { module: {}, stales: 'fail' } } as never)).toThrow(
      /documents.stales is not an option \(did you mean documents.stale\?\); documents takes module, stale/,
    );
    expect(() => settleOptions({ observe: true } as never)).toThrow(/observe must be an object of options/);
  });

  it('refuses a top-level key that is no option, naming the nearest one, so a misspelt group is never ignored', () => {
    expect(() => settleOptions({ acess: { auth: { verify: () => undefined } } } as never)).toThrow(
      /^mcp-mount: acess is not an option \(did you mean access\?\); the options are server, flattenUnionInput, /,
    );
    expect(() => settleOptions({ xyzzy: 1 } as never)).toThrow(
      /^mcp-mount: xyzzy is not an option; the options are server, /,
    );
  });

  it('suggests an option only for a typo of it, never for a name that merely shares letters with one', () => {
    const hint = (options: object) => {
      try {
        settleOptions(options as never);
      } catch (error) {
        return /did you mean ([\w.]+)\?/.exec((error as Error).message)?.[1] ?? 'none';
      }
      return 'accepted';
    };
    expect(
      [
        { flattenUnion: true },
        { projecton: 'flat' },
        { limits: { timeout: 5 } },
        { access: { orgins: [] } },
        { repair: {} },
        { coerceJsonArgs: true },
        { allowedOrigins: [] },
        { arguments: { coerce: true } },
      ].map(hint),
    ).toEqual([
      'flattenUnionInput',
      'projection',
      'limits.timeoutMs',
      'access.origins',
      'none',
      'none',
      'none',
      'none',
    ]);
  });

  it('defaults to noticing unknown keys, ignoring n8n toolCallId, and refusing tool-call markup', () => {
    const config = settleOptions();
    expect(config.arguments.unknownKeys).toBe('notice');
    expect(config.arguments.injectedKeys).toEqual(['toolCallId']);
    expect(config.arguments.hygiene).toBe(true);
    expect(Object.isFrozen(config.arguments.injectedKeys)).toBe(true);
  });

  it('is not changed by the caller mutating its options after the mount', async () => {
    const options = { limits: { maxRequestBodyBytes: 4096 }, arguments: { scalars: true } };
    const handler = createMcpFetchHandler([add], options);
    options.limits.maxRequestBodyBytes = 8;
    options.arguments.scalars = false;
    const response = await handler.fetch(callAdd({ a: '1', b: 2 }));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"text":"3"');
  });
});
