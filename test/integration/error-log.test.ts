/**
 * Errors are never lost: with no `observe` option at all, a throwing handler on Hono and on Express is logged
 * by the default logger (the console's `error`) with its error id, tool, caller and phase, and the client sees
 * only the masked text with the same id. The Worker's twin runs in workerd (test/adapters/runtimes).
 */
import express from 'express';
import { Hono } from 'hono';
import { type AnyTool, defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { listenApp } from '../adapters/support/listen.js';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc } from '../adapters/support/tools.js';
import { listen } from '../support/server.js';

const boom = defineTool({
  name: 'orders',
  input: z.object({}),
  handler: () => {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
  },
});

const mounts: Record<
  string,
  (tools: AnyTool[], options?: McpMountOptions) => Promise<{ url: string; close(): Promise<void> }>
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

afterEach(() => vi.restoreAllMocks());

const call = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...jsonRpcHeaders, ...headers },
    body: rpc('tools/call', { name: 'orders', arguments: {} }, 7),
  });
  const text: string = parseBody(await response.text()).result.content[0].text;
  return /^Tool orders failed \(error id ([0-9a-f-]{36})\)$/.exec(text)?.[1];
};

describe.each(Object.keys(mounts))('the default error log on %s', (name) => {
  it('logs a throwing handler with its error id, tool, phase and request, with no onError set', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await mounts[name]!([boom]);
    try {
      const id = await call(server.url);
      expect(id).toBeDefined();
      expect(logged.mock.calls).toEqual([
        [`mcp-mount: handler error (error id ${id}, tool orders, request 7)`, expect.any(Error)],
      ]);
      expect((logged.mock.calls[0]![1] as Error).message).toContain('ECONNREFUSED');
    } finally {
      await server.close();
    }
  });

  it('names the caller, and still logs when onError is set; onError gets the phase', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const verify = (token: string) => ({
      token,
      clientId: 'budget-app',
      scopes: [],
      expiresAt: 'never' as const,
      extra: { sub: 'ada' },
    });
    const server = await mounts[name]!([boom], { access: { auth: { verify } }, observe: { onError } });
    try {
      const id = await call(server.url, { authorization: 'Bearer key-1' });
      expect(logged.mock.calls).toEqual([
        [`mcp-mount: handler error (error id ${id}, tool orders, caller budget-app/ada, request 7)`, expect.any(Error)],
      ]);
      expect(onError).toHaveBeenCalledWith(logged.mock.calls[0]![1], {
        phase: 'handler',
        errorId: id,
        tool: 'orders',
        requestId: 7,
        caller: { clientId: 'budget-app', subject: 'ada' },
      });
    } finally {
      await server.close();
    }
  });
});

describe('a prompt or resource handler that throws', () => {
  it('is masked behind an error id like a tool handler, logged and reported with phase feature', async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const onError = vi.fn();
    const server = await mounts.hono!([boom], {
      observe: { logger, onError },
      server: {
        features(s) {
          s.registerPrompt('summary', { description: 'd' }, () => {
            throw new Error('SECRET prompt db password');
          });
          s.registerResource('report', 'docs://report', {}, () => {
            throw new Error('SECRET resource path /etc/x');
          });
        },
      },
    });
    try {
      for (const [method, params, what] of [
        ['prompts/get', { name: 'summary' }, 'Prompt summary'],
        ['resources/read', { uri: 'docs://report' }, 'Resource report'],
      ] as const) {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: jsonRpcHeaders,
          body: rpc(method, params, 4),
        });
        const text = await response.text();
        expect(text).not.toContain('SECRET');
        const message: string = parseBody(text).error.message;
        expect(message).toMatch(new RegExp(`^${what} failed \\(error id [0-9a-f-]{36}\\)$`));
      }
      expect(logger.error).toHaveBeenCalledTimes(2);
      expect(onError.mock.calls.map(([error, info]) => [(error as Error).message, info.phase])).toEqual([
        ['SECRET prompt db password', 'feature'],
        ['SECRET resource path /etc/x', 'feature'],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("a client's mistake", () => {
  it('is answered with its 4xx and logs nothing, so no client can flood the error log', async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const onError = vi.fn();
    const server = await mounts.hono!([boom], { observe: { logger, onError } });
    try {
      const mistakes: Array<Record<string, string>> = [
        // A 2026-07-28 header without the envelope the revision requires in `params._meta`.
        { ...jsonRpcHeaders, 'mcp-protocol-version': '2026-07-28' },
        { ...jsonRpcHeaders, accept: 'text/html' },
      ];
      for (const headers of mistakes) {
        const response = await fetch(server.url, { method: 'POST', headers, body: rpc('tools/list', {}, 3) });
        expect(response.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
        expect(response.status, JSON.stringify(headers)).toBeLessThan(500);
      }
      expect(logger.error).not.toHaveBeenCalled();
      expect(onError).not.toHaveBeenCalled();
    } finally {
      await server.close();
    }
  });
});

describe('hooks that throw', () => {
  it('a throwing onCall is logged and reported with its phase, and the call is answered', async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const onError = vi.fn();
    const ok = defineTool({ name: 'orders', input: z.object({}), handler: () => 'fine' });
    const onCall = () => {
      throw new Error('audit sink down');
    };
    const server = await mounts.hono!([ok], { observe: { logger, onError, onCall } });
    try {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: jsonRpcHeaders,
        body: rpc('tools/call', { name: 'orders', arguments: {} }, 3),
      });
      expect(parseBody(await response.text()).result.content[0].text).toBe('fine');
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'audit sink down' }), {
        phase: 'onCall',
        errorId: expect.any(String),
        tool: 'orders',
        requestId: 3,
      });
      expect(logger.error).toHaveBeenCalledWith(
        expect.stringMatching(/^mcp-mount: onCall hook error \(error id .+, tool orders, request 3\)$/),
        expect.any(Error),
      );
    } finally {
      await server.close();
    }
  });
});
