/**
 * Bearer auth (`auth`) with real tokens: JWTs signed here with `jose` by a local issuer and verified with
 * `jose` against its JWKS in `auth.verify`, over real HTTP, driven by both official clients (the v2 client
 * through its auth provider, the 2025-era client through its headers). The protected-resource metadata
 * that the 401 points to is served and followed.
 */
import { Hono } from 'hono';
import { generateKeyPair } from 'jose';
import { type AuthOptions, defineTool, protectedResourceMetadata, type RefusalEvent } from 'mcp-mount';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { mcp as nextMcp } from 'mcp-mount/next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type DevIssuer, devIssuer, jwtVerifier } from '../../examples/shared/jwt.js';
import { connect, eras } from '../adapters/support/clients.js';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc } from '../adapters/support/tools.js';
import { listen, type Running } from '../support/server.js';

const ISSUER = 'https://auth.example.com';
const AUDIENCE = 'https://mcp.example.com/mcp';

const whoami = defineTool({
  name: 'whoami',
  description: 'Who the server thinks is calling.',
  input: z.object({}),
  handler: (_args, ctx) => ({
    clientId: ctx.authInfo?.clientId ?? null,
    scopes: ctx.authInfo?.scopes ?? null,
    subject: ctx.authInfo?.extra?.sub ?? null,
    expiresAt: typeof ctx.authInfo?.expiresAt,
  }),
});

let issuer: DevIssuer;
const errors: unknown[] = [];
const refusals: RefusalEvent[] = [];
beforeAll(async () => {
  issuer = await devIssuer(ISSUER, AUDIENCE);
});

/** Serves `whoami` on Hono at /mcp with `auth` (the local issuer's verifier unless given), and the metadata. */
async function serve(auth: Partial<AuthOptions> = {}): Promise<Running> {
  const app = new Hono();
  const verify = jwtVerifier({ jwks: issuer.jwks, issuer: ISSUER, audience: AUDIENCE });
  app.all(
    '/mcp',
    honoMcp([whoami], {
      access: { auth: { verify, ...auth } },
      observe: { onError: (e) => errors.push(e), onRefusal: (e) => refusals.push(e) },
    }),
  );
  const running = await listen(app.fetch);
  const metadata = protectedResourceMetadata({ resource: running.url, authorizationServers: [ISSUER] });
  app.get(metadata.path, (c) => metadata.fetch(c.req.raw));
  return running;
}

const post = (url: string, headers: Record<string, string> = {}, body = rpc('tools/list')) =>
  fetch(url, { method: 'POST', headers: { ...jsonRpcHeaders, ...headers }, body });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('auth: required (the default)', () => {
  let server: Running;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server.close());
  const metadataUrl = () => server.url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp');

  it('answers no token with 401 and a Bearer challenge naming the resource metadata', async () => {
    const response = await post(server.url);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="${metadataUrl()}"`,
    );
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description: 'Missing Authorization header',
    });
  });

  it('serves the metadata the challenge points to (RFC 9728), naming the authorization server', async () => {
    const challenge = (await post(server.url)).headers.get('www-authenticate') ?? '';
    const url = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    const response = await fetch(url!);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      resource: server.url,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
    });
  });

  it('answers a bad signature, an expired token and a token for another audience with 401', async () => {
    const { privateKey: forger } = await generateKeyPair('ES256');
    const tokens = {
      forged: await issuer.sign({ sub: 'mallory' }, { key: forger }),
      expired: await issuer.sign({ sub: 'ada' }, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
      elsewhere: await issuer.sign({ sub: 'ada' }, { audience: 'https://other.example.com/mcp' }),
      garbage: 'not-a-jwt',
    };
    errors.length = 0;
    refusals.length = 0;
    for (const [kind, token] of Object.entries(tokens)) {
      const response = await post(server.url, bearer(token));
      expect(response.status, kind).toBe(401);
      expect(response.headers.get('www-authenticate'), kind).toBe(
        `Bearer error="invalid_token", error_description="Invalid token", resource_metadata="${metadataUrl()}"`,
      );
    }
    // An invalid token is a refusal for the audit trail, not an error: nothing reaches onError.
    expect(errors).toEqual([]);
    expect(refusals).toEqual(
      Object.keys(tokens).map(() => ({
        reason: 'invalid-token',
        status: 401,
        message: 'Invalid token',
        client: { remoteAddress: '127.0.0.1', userAgent: expect.any(String) },
      })),
    );
  });

  it.each(eras.map((era) => [era]))(
    'serves client %s with a valid token; ctx.authInfo is the verified token',
    async (era) => {
      const token = await issuer.sign({ sub: 'ada', client_id: 'notes-app', scope: 'notes:read' });
      const client = await connect(era, server.url, fetch, { token });
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
        const result = await client.callTool('whoami', {});
        expect(JSON.parse(result.content[0]!.text!)).toEqual({
          clientId: 'notes-app',
          scopes: ['notes:read'],
          subject: 'ada',
          expiresAt: 'number',
        });
      } finally {
        await client.close();
      }
    },
  );

  it.each(eras.map((era) => [era]))('refuses client %s without a token', async (era) => {
    await expect(connect(era, server.url)).rejects.toThrow();
  });
});

describe('auth: requiredScopes', () => {
  let server: Running;
  beforeAll(async () => {
    server = await serve({ requiredScopes: ['mcp'] });
  });
  afterAll(() => server.close());

  it('answers a token without them with 403 insufficient_scope naming them, and serves one with them', async () => {
    const without = await post(server.url, bearer(await issuer.sign({ sub: 'ada', scope: 'notes:read' })));
    expect(without.status).toBe(403);
    expect(without.headers.get('www-authenticate')).toMatch(
      /^Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    const granted = await post(server.url, bearer(await issuer.sign({ sub: 'ada', scope: 'notes:read mcp' })));
    expect(granted.status).toBe(200);
  });
});

describe('auth: required false', () => {
  let server: Running;
  beforeAll(async () => {
    server = await serve({
      required: false,
      resourceMetadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    });
  });
  afterAll(() => server.close());

  it('serves a request without a token unauthenticated, and still refuses a bad token', async () => {
    const call = rpc('tools/call', { name: 'whoami', arguments: {} });
    const anonymous = await post(server.url, {}, call);
    expect(anonymous.status).toBe(200);
    expect(JSON.parse(parseBody(await anonymous.text()).result.content[0].text)).toMatchObject({ clientId: null });
    const bad = await post(server.url, bearer('not-a-jwt'), call);
    expect(bad.status).toBe(401);
    // The configured metadata URL (behind a proxy, the public one) is what the challenge names.
    expect(bad.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });
});

describe('auth on other mounts', () => {
  it('takes auth on the Next.js route with the same one-line mount', async () => {
    const verify = jwtVerifier({ jwks: issuer.jwks, issuer: ISSUER, audience: AUDIENCE });
    const { POST } = nextMcp([whoami], { access: { auth: { verify } } });
    const context = { params: Promise.resolve({}) };
    const request = (headers: Record<string, string>) =>
      new Request('http://localhost:3000/mcp', {
        method: 'POST',
        headers: { ...jsonRpcHeaders, ...headers },
        body: rpc('tools/list'),
      });
    expect((await POST(request({}), context)).status).toBe(401);
    const token = await issuer.sign({ sub: 'ada' });
    expect((await POST(request(bearer(token)), context)).status).toBe(200);
  });

  it('counts an upstream authInfo (Hono c.set) as authenticated, still held to requiredScopes', async () => {
    const verify = () => undefined;
    const app = (scopes: string[]) => {
      const hono = new Hono();
      hono.use('/mcp', async (c, next) => {
        c.set('authInfo' as never, { token: 'upstream', clientId: 'gateway', scopes } as never);
        await next();
      });
      hono.all('/mcp', honoMcp([whoami], { access: { auth: { verify, requiredScopes: ['mcp'] } } }));
      return hono;
    };
    const send = (hono: Hono) =>
      hono.request('/mcp', {
        method: 'POST',
        headers: jsonRpcHeaders,
        body: rpc('tools/call', { name: 'whoami', arguments: {} }),
      });
    const ok = await send(app(['mcp']));
    expect(ok.status).toBe(200);
    expect(JSON.parse(parseBody(await ok.text()).result.content[0].text)).toMatchObject({ clientId: 'gateway' });
    expect((await send(app([]))).status).toBe(403);
  });
});

describe('auth options', () => {
  it('refuse at construction what cannot mean anything', () => {
    const verify = () => undefined;
    const bad: unknown[] = [
      { verify: 'nope' },
      { verify, required: 'yes' },
      { verify, required: false, requiredScopes: ['mcp'] },
      { verify, requiredScopes: ['has space'] },
      { verify, resourceMetadataUrl: '/relative' },
    ];
    for (const auth of bad) {
      expect(() => honoMcp([whoami], { access: { auth: auth as AuthOptions } }), JSON.stringify(auth)).toThrow(
        TypeError,
      );
    }
  });

  it('protectedResourceMetadata: the document, its path and URL, and its answers', async () => {
    const metadata = protectedResourceMetadata({
      resource: 'https://api.example.com/tools/mcp',
      authorizationServers: ['https://auth.example.com', 'https://login.example.org'],
      scopesSupported: ['notes:read', 'notes:write'],
      resourceName: 'Notes',
    });
    expect(metadata.path).toBe('/.well-known/oauth-protected-resource/tools/mcp');
    expect(metadata.url).toBe('https://api.example.com/.well-known/oauth-protected-resource/tools/mcp');
    expect(metadata.document).toEqual({
      resource: 'https://api.example.com/tools/mcp',
      authorization_servers: ['https://auth.example.com', 'https://login.example.org'],
      scopes_supported: ['notes:read', 'notes:write'],
      resource_name: 'Notes',
      bearer_methods_supported: ['header'],
    });
    const at = (method: string) => metadata.fetch(new Request(metadata.url, { method }));
    expect(await (await at('GET')).json()).toEqual(metadata.document);
    expect([(await at('HEAD')).status, await (await at('HEAD')).text()]).toEqual([200, '']);
    expect((await at('OPTIONS')).status).toBe(204);
    expect((await at('POST')).status).toBe(405);
    expect(() =>
      protectedResourceMetadata({
        resource: 'https://a.example/mcp',
        authorizationServers: ['http://auth.example.com'],
      }),
    ).toThrow(/HTTPS/);
    expect(() => protectedResourceMetadata({ resource: 'https://a.example/mcp', authorizationServers: [] })).toThrow(
      TypeError,
    );
  });
});
