/**
 * Honest auth outcomes over real HTTP: a JWKS that cannot be fetched (a local JWKS server, then stopped) is
 * an outage, 503 with `Retry-After` and the cause for `onError`, so clients keep their tokens; a forged
 * token is 401; a token without an expiry passes only when `verify` says `expiresAt: 'never'`; the optional
 * cache of `verify` answers holds valid answers until the token's expiry or its own maximum age.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { createRemoteJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { type AuthOptions, defineTool, type ErrorInfo, type RefusalEvent } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jwtVerifier } from '../../examples/shared/jwt.js';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc } from '../adapters/support/tools.js';
import { listen, type Running } from '../support/server.js';

const ISSUER = 'https://auth.example.com';
const AUDIENCE = 'https://mcp.example.com/mcp';

const whoami = defineTool({
  name: 'whoami',
  input: z.object({}),
  handler: (_args, ctx) => ({ clientId: ctx.authInfo?.clientId ?? null, expiresAt: ctx.authInfo?.expiresAt ?? null }),
});

interface Seen {
  errors: Array<[unknown, ErrorInfo]>;
  refusals: RefusalEvent[];
}

async function serve(auth: AuthOptions): Promise<Running & Seen> {
  const seen: Seen = { errors: [], refusals: [] };
  const app = new Hono();
  const logger = { warn() {}, error() {} };
  app.all(
    '/mcp',
    mcp([whoami], {
      access: { auth },
      observe: {
        logger,
        onError: (e, info) => seen.errors.push([e, info]),
        onRefusal: (e) => seen.refusals.push(e),
      },
    }),
  );
  return Object.assign(await listen(app.fetch), seen);
}

const post = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...jsonRpcHeaders, authorization: `Bearer ${token}` },
    body: rpc('tools/call', { name: 'whoami', arguments: {} }),
  });

describe('a JWKS that cannot be fetched', () => {
  let jwks: Server;
  let jwksUrl: URL;
  let sign: (key?: CryptoKey) => Promise<string>;
  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const keys = [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }];
    jwks = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys })),
    );
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`);
    sign = (key = privateKey) =>
      new SignJWT({ client_id: 'notes-app' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime('1h')
        .sign(key);
  });
  afterAll(() => new Promise<void>((resolve) => jwks.close(() => resolve())));

  it('serves a valid token and answers a forged one 401 while the JWKS is up; 503 with Retry-After once it is down', async () => {
    const verify = () =>
      jwtVerifier({ jwks: createRemoteJWKSet(jwksUrl, { timeoutDuration: 1000 }), issuer: ISSUER, audience: AUDIENCE });
    const up = await serve({ verify: verify(), retryAfterSeconds: 7 });
    try {
      expect((await post(up.url, await sign())).status).toBe(200);
      const forged = await post(up.url, await sign((await generateKeyPair('ES256')).privateKey));
      expect(forged.status).toBe(401);
      expect(forged.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(up.errors).toEqual([]);
      expect(up.refusals).toEqual([
        {
          reason: 'invalid-token',
          status: 401,
          message: 'Invalid token',
          client: { remoteAddress: '127.0.0.1', userAgent: expect.any(String) },
        },
      ]);
    } finally {
      await up.close();
    }

    // The JWKS server stops; a fresh key set (nothing cached) cannot fetch the keys.
    await new Promise<void>((resolve) => {
      jwks.close(() => resolve());
      jwks.closeAllConnections();
    });
    const down = await serve({ verify: verify(), retryAfterSeconds: 7 });
    try {
      const response = await post(down.url, await sign());
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('7');
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await response.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'The access token could not be checked right now; retry later',
      });
      expect(down.errors).toHaveLength(1);
      const [cause, info] = down.errors[0]!;
      expect(cause).toBeInstanceOf(Error);
      expect(info).toEqual({ phase: 'auth', errorId: expect.any(String) });
      expect(down.refusals).toEqual([
        {
          reason: 'auth-unavailable',
          status: 503,
          message: 'The access token could not be checked right now; retry later',
          retryAfterSeconds: 7,
          client: { remoteAddress: '127.0.0.1', userAgent: expect.any(String) },
        },
      ]);
    } finally {
      await down.close();
    }
  });
});

describe('tokens without an expiry (API keys)', () => {
  const key = (expiresAt?: number | 'never') => (token: string) =>
    token === 'key-1'
      ? { token, clientId: 'cron', scopes: [], ...(expiresAt !== undefined && { expiresAt }) }
      : undefined;

  it("are refused with the SDK's rule unless verify says expiresAt: 'never'", async () => {
    const strict = await serve({ verify: key() as AuthOptions['verify'] });
    try {
      const refused = await post(strict.url, 'key-1');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error_description="Token has no expiration time"');
    } finally {
      await strict.close();
    }
    const keys = await serve({ verify: key('never') });
    try {
      const served = await post(keys.url, 'key-1');
      expect(served.status).toBe(200);
      // Tools see no expiry, not a sentinel.
      expect(JSON.parse(parseBody(await served.text()).result.content[0].text)).toEqual({
        clientId: 'cron',
        expiresAt: null,
      });
      expect((await post(keys.url, 'key-2')).status).toBe(401);
    } finally {
      await keys.close();
    }
  });
});

describe('the verification cache', () => {
  afterEach(() => vi.useRealTimers());

  const counted = (expiresIn: number | 'never') => {
    const calls: string[] = [];
    const verify = (token: string) => {
      calls.push(token);
      if (!token.startsWith('good')) return undefined;
      const expiresAt = expiresIn === 'never' ? ('never' as const) : Math.floor(Date.now() / 1000) + expiresIn;
      return { token, clientId: token, scopes: [], expiresAt };
    };
    return { calls, verify };
  };

  it('is off by default: every request is verified', async () => {
    const { calls, verify } = counted(3600);
    const server = await serve({ verify });
    try {
      for (let i = 0; i < 3; i++) expect((await post(server.url, 'good-1')).status).toBe(200);
      expect(calls).toEqual(['good-1', 'good-1', 'good-1']);
    } finally {
      await server.close();
    }
  });

  it('keeps valid answers per token, not invalid ones, and hands each request its own token', async () => {
    const { calls, verify } = counted(3600);
    const server = await serve({ verify, cache: true });
    try {
      for (const token of ['good-1', 'good-1', 'good-2', 'good-1', 'bad', 'bad']) await post(server.url, token);
      expect(calls).toEqual(['good-1', 'good-2', 'bad', 'bad']);
      const served = await post(server.url, 'good-2');
      expect(JSON.parse(parseBody(await served.text()).result.content[0].text)).toMatchObject({ clientId: 'good-2' });
    } finally {
      await server.close();
    }
  });

  it('holds an answer until the token expires, or maxAgeSeconds, whichever is first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const short = counted(60);
    const server = await serve({ verify: short.verify, cache: { maxAgeSeconds: 600 } });
    const keys = counted('never');
    const keyServer = await serve({ verify: keys.verify, cache: { maxAgeSeconds: 120 } });
    try {
      await post(server.url, 'good-1');
      await post(keyServer.url, 'good-key');
      vi.setSystemTime(Date.now() + 59_000);
      await post(server.url, 'good-1');
      await post(keyServer.url, 'good-key');
      expect([short.calls.length, keys.calls.length]).toEqual([1, 1]);
      vi.setSystemTime(Date.now() + 2_000); // past the token's expiry; the key's 120 s not yet
      await post(server.url, 'good-1');
      await post(keyServer.url, 'good-key');
      expect([short.calls.length, keys.calls.length]).toEqual([2, 1]);
      vi.setSystemTime(Date.now() + 60_000); // past the key's 120 s
      await post(keyServer.url, 'good-key');
      expect(keys.calls.length).toBe(2);
    } finally {
      await server.close();
      await keyServer.close();
    }
  });

  it('hands each request a copy: a tool that changes ctx.authInfo (a dictionary without a prototype) changes no later request', async () => {
    const seen: unknown[] = [];
    const promote = defineTool({
      name: 'promote',
      input: z.object({}),
      handler: (_args, ctx) => {
        const claims = ctx.authInfo?.extra?.claims as Record<string, unknown>;
        seen.push(claims.role);
        claims.role = 'admin';
        return 'ok';
      },
    });
    const verify = (token: string) => {
      // What a JWT or introspection library hands back: a dictionary without `Object.prototype`.
      const claims = Object.assign(Object.create(null), { role: 'reader' });
      return { token, clientId: 'app', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 600, extra: { claims } };
    };
    const app = new Hono();
    app.all(
      '/mcp',
      mcp([promote], { access: { auth: { verify, cache: true } }, observe: { logger: { warn() {}, error() {} } } }),
    );
    const server = await listen(app.fetch);
    try {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: { ...jsonRpcHeaders, authorization: 'Bearer alice' },
          body: rpc('tools/call', { name: 'promote', arguments: {} }),
        });
        expect(parseBody(await response.text()).result.content[0].text).toBe('ok');
      }
      expect(seen).toEqual(['reader', 'reader', 'reader']);
    } finally {
      await server.close();
    }
  });

  it('refuses at construction limits that are not positive integers', () => {
    const verify = () => undefined;
    for (const cache of [{ maxEntries: 0 }, { maxAgeSeconds: 1.5 }, 'yes']) {
      expect(() => mcp([whoami], { access: { auth: { verify, cache: cache as never } } })).toThrow(
        /access\.auth\.cache/,
      );
    }
    expect(() => mcp([whoami], { access: { auth: { verify, retryAfterSeconds: -1 } } })).toThrow(/retryAfterSeconds/);
  });
});
