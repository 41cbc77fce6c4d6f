/**
 * Nothing a client chooses shapes a log line: the JSON-RPC id, the name of a tool that does not exist, the
 * subject a verifier copies from a token, and what the SDK quotes back of a refused request reach
 * `observe.logger` quoted and escaped, so each error is one line of the documented form, whatever characters
 * they hold (generated ones included), and no line can be forged.
 */
import express from 'express';
import fc from 'fast-check';
import { Hono } from 'hono';
import { type AnyTool, defineTool, type McpMountOptions } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listenApp } from '../adapters/support/listen.js';
import { jsonRpcHeaders } from '../adapters/support/tools.js';
import { holdsUnsafe, hostileText } from '../support/hostile-text.js';
import { propertyRuns } from '../support/property-runs.js';
import { listen } from '../support/server.js';

const orders = defineTool({
  name: 'orders',
  input: z.object({}),
  handler: () => {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
  },
});

/** A value as a log line writes it: a plain token, or a JSON string. */
const VALUE = String.raw`(?:[A-Za-z0-9_.:@+-]+|"(?:[^"\\]|\\.)*")`;
/** The one form of an error line (observe.ts `errorLine`): every field a value, in order, on one line. */
const ERROR_LINE = new RegExp(
  String.raw`^mcp-mount: [A-Za-z ]+ error \(error id [0-9a-f-]{36}(, tool ${VALUE})?(, caller ${VALUE}(/${VALUE})?)?(, request ${VALUE})?\)$`,
);

/** A logger that keeps what it is handed. */
function recorder() {
  const lines: Array<{ line: unknown; detail: unknown }> = [];
  const keep = (line: unknown, detail?: unknown) => lines.push({ line, detail });
  return { lines, logger: { warn: keep, error: keep } };
}

/** Every logged line is one line of the documented form, and what is logged beside it holds nothing unsafe. */
function expectWellFormed(lines: Array<{ line: unknown; detail: unknown }>) {
  for (const { line, detail } of lines) {
    expect(typeof line).toBe('string');
    expect(holdsUnsafe(line as string), JSON.stringify(line)).toBe(false);
    if ((line as string).includes(' error (error id ')) expect(line).toMatch(ERROR_LINE);
    if (detail instanceof Error) expect(holdsUnsafe(detail.message), JSON.stringify(detail.message)).toBe(false);
  }
}

const mounts: Record<
  string,
  (tools: AnyTool[], options: McpMountOptions) => Promise<{ url: string; close(): Promise<void> }>
> = {
  hono: async (tools, options) => {
    const app = new Hono();
    app.all('/mcp', honoMcp(tools, options));
    return listen(app.fetch);
  },
  express: async (tools, options) => {
    const app = express();
    app.use(express.json());
    app.post('/mcp', expressMcp(tools, options));
    return listenApp(app);
  },
};

describe.each(Object.keys(mounts))('the error log on %s', (name) => {
  it('writes a JSON-RPC id holding a forged line as a quoted value on the one line of its error', async () => {
    const { lines, logger } = recorder();
    const server = await mounts[name]!([orders], { observe: { logger } });
    const id = 'x)\nmcp-mount: auth error (error id 00000000-0000-0000-0000-000000000000, caller admin/root';
    try {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: jsonRpcHeaders,
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'orders', arguments: {} } }),
      });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      await server.close();
    }
    expect(lines).toHaveLength(1);
    const line = lines[0]!.line as string;
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(ERROR_LINE);
    expect(line.endsWith(`, request ${JSON.stringify(id)})`)).toBe(true);
  });
});

/** `Bearer <base64url of {"sub": ...}>`: a verifier that puts a token's subject in `extra.sub`, as JWT ones do. */
const tokenFor = (sub: string) => Buffer.from(JSON.stringify({ sub })).toString('base64url');
const verify = (token: string) => {
  const { sub } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { sub: string };
  return { token, clientId: 'app', scopes: [], expiresAt: 'never' as const, extra: { sub } };
};

describe('every client-chosen value that reaches the log', () => {
  it('is quoted and escaped, whatever characters it holds (generated)', async () => {
    const { lines, logger } = recorder();
    const handler = createMcpFetchHandler([orders], {
      access: { auth: { verify, required: false } },
      observe: {
        logger,
        // A hook that throws is logged with the refused call's tool (an unknown tool: the client's name for it).
        onRefusal: () => {
          throw new Error('audit store down');
        },
      },
    });
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await handler.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { ...jsonRpcHeaders, ...headers },
          body: JSON.stringify(body),
        }),
      );
      await response.text();
    };
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), hostileText(), async (id, tool, subject) => {
        lines.length = 0;
        const authorization = { authorization: `Bearer ${tokenFor(subject)}` };
        // The id and the subject, on a handler's error.
        await post(
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'orders', arguments: {} } },
          authorization,
        );
        // The tool's name, on the error of the hook that heard of the unknown tool.
        await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } }, authorization);
        // What the SDK quotes back of a revision it does not serve is the client's mistake: not an error line.
        const meta = {
          'io.modelcontextprotocol/protocolVersion': tool,
          'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        };
        await post({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta } });
        expect(lines.map(({ line }) => String(line).slice(0, 40))).toEqual([
          expect.stringMatching(/^mcp-mount: handler error/),
          expect.stringMatching(/^mcp-mount: onRefusal hook error/),
        ]);
        expectWellFormed(lines);
      }),
      { numRuns: propertyRuns(100, 25), seed: 20261212 },
    );
  });
});
