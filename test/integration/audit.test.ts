/**
 * Audit: `onCall` and `onError` say who called (the token's client id and subject), which request and
 * which tool, and `redact` keeps secrets in the arguments out of what `onCall` reports. Real JWTs (jose)
 * and both official clients over real HTTP.
 */
import { Hono } from 'hono';
import { type CallEvent, defineTool, type ErrorInfo, type McpMountOptions } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type DevIssuer, devIssuer, jwtVerifier } from '../../examples/shared/jwt.js';
import { connect, eras } from '../adapters/support/clients.js';
import { mergedOptions } from '../support/options.js';
import { listen } from '../support/server.js';

const ISSUER = 'https://auth.example.com';
const AUDIENCE = 'https://mcp.example.com/mcp';

const login = defineTool({
  name: 'connect_bank',
  input: z.object({ account: z.string(), password: z.string() }),
  handler: ({ input }) => ({ connected: input.account }),
});
const broken = defineTool({
  name: 'broken',
  input: z.object({}),
  handler: () => {
    throw new Error('internal');
  },
});

let issuer: DevIssuer;
beforeAll(async () => {
  issuer = await devIssuer(ISSUER, AUDIENCE);
});

/** Runs `body` against a mount with `options`, for each client era, and returns what the hooks saw. */
async function observed(
  options: McpMountOptions,
  body: (call: (name: string, args: unknown) => Promise<unknown>) => Promise<void>,
) {
  const calls: CallEvent[] = [];
  const errors: ErrorInfo[] = [];
  const app = new Hono();
  const verify = jwtVerifier({ jwks: issuer.jwks, issuer: ISSUER, audience: AUDIENCE });
  app.all(
    '/mcp',
    mcp(
      [login, broken],
      mergedOptions(
        {
          access: { auth: { verify } },
          observe: { onCall: (e) => calls.push(e), onError: (_e, info) => errors.push(info) },
        },
        options,
      ),
    ),
  );
  const server = await listen(app.fetch);
  try {
    for (const era of eras) {
      const token = await issuer.sign({ sub: 'user-42', client_id: 'budget-app' });
      const client = await connect(era, server.url, fetch, { token });
      try {
        await body((name, args) => client.callTool(name, args));
      } finally {
        await client.close();
      }
    }
  } finally {
    await server.close();
  }
  return { calls, errors };
}

describe('audit', () => {
  it('onCall reports the caller, the request id, the tool and the arguments, through redact', async () => {
    const { calls } = await observed(
      { observe: { redact: (args, tool) => ({ ...args, password: '[redacted]', tool }) } },
      async (call) => {
        await call('connect_bank', { account: 'acc-1', password: 'hunter2' });
        await call('connect_bank', { account: 7, password: 'hunter2' }); // refused by the parse
      },
    );
    expect(calls).toHaveLength(2 * eras.length);
    for (const event of calls) {
      expect(event).toMatchObject({
        tool: 'connect_bank',
        caller: { clientId: 'budget-app', subject: 'user-42' },
        requestId: expect.anything(),
        args: { password: '[redacted]', tool: 'connect_bank' },
      });
      expect(JSON.stringify(event)).not.toContain('hunter2');
    }
    expect(calls.map((e) => e.ok)).toEqual([true, false, true, false]);
    expect(calls[1]?.error).toContain('account: expected string, received number');
    expect(new Set(calls.map((e) => e.requestId)).size).toBeGreaterThan(1);
  });

  it('reports the arguments as sent without redact, and leaves them out when redact throws', async () => {
    const plain = await observed({}, async (call) => {
      await call('connect_bank', { account: 'acc-1', password: 'p' });
    });
    expect(plain.calls[0]?.args).toEqual({ account: 'acc-1', password: 'p' });
    const logger = { warn: vi.fn(), error: vi.fn() };
    const failing = await observed(
      {
        observe: {
          logger,
          redact: () => {
            throw new Error('redactor bug');
          },
        },
      },
      async (call) => {
        await call('connect_bank', { account: 'acc-1', password: 'p' });
      },
    );
    expect(failing.calls[0]).toMatchObject({ tool: 'connect_bank', ok: true });
    expect(failing.calls[0]).not.toHaveProperty('args');
    expect(logger.error).toHaveBeenCalledWith('mcp-mount: redact threw; args left out of onCall', expect.any(Error));
  });

  it('onError reports the caller and the request id with the error id', async () => {
    const { calls, errors } = await observed({}, async (call) => {
      await call('broken', {});
    });
    expect(errors).toHaveLength(eras.length);
    errors.forEach((info, i) => {
      expect(info).toEqual({
        phase: 'handler',
        tool: 'broken',
        errorId: calls[i]?.errorId,
        requestId: calls[i]?.requestId,
        caller: { clientId: 'budget-app', subject: 'user-42' },
      });
    });
  });
});
