/**
 * One access model for what the `features` hook registers, with real JWTs and both official clients over real
 * HTTP: a prompt or resource whose SDK `scopeChallenge` refuses the caller is left out of its list and its get
 * or read gets 403 `insufficient_scope` (a caller without a token too); `visibleFeatures` hides a prompt, a
 * resource and a template, which then answer as unknown ones; `listUnauthorizedTools` lists scoped ones anyway.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceTemplate, requireScopes } from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODERN } from '../../examples/shared/clients.js';
import { type DevIssuer, devIssuer, jwtVerifier } from '../../examples/shared/jwt.js';
import { mergedOptions } from '../support/options.js';
import { type SdkEra, sdkEras } from '../support/sdk-clients.js';
import { listen, type Running } from '../support/server.js';

const ISSUER = 'https://auth.example.com';
const AUDIENCE = 'https://mcp.example.com/mcp';
let issuer: DevIssuer;
beforeAll(async () => {
  issuer = await devIssuer(ISSUER, AUDIENCE);
});

const ping = defineTool({ name: 'ping', handler: () => 'pong' });
const text = (uri: URL, t: string) => ({ contents: [{ uri: uri.href, text: t }] });
const options = (more: McpMountOptions = {}): McpMountOptions =>
  mergedOptions(
    {
      access: {
        auth: { verify: jwtVerifier({ jwks: issuer.jwks, issuer: ISSUER, audience: AUDIENCE }), required: false },
      },
      server: {
        features(server) {
          server.registerPrompt('greet', { argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
            messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
          }));
          server.registerPrompt('audit', { scopeChallenge: requireScopes('audit:read') }, () => ({
            messages: [{ role: 'user', content: { type: 'text', text: 'audit' } }],
          }));
          server.registerResource('readme', 'docs://readme', {}, (uri) => text(uri, '# readme'));
          server.registerResource('payroll', 'docs://payroll', { scopeChallenge: requireScopes('hr:read') }, (uri) =>
            text(uri, 'salaries'),
          );
          server.registerResource(
            'staff-note',
            new ResourceTemplate('notes://staff/{id}', { list: undefined }),
            {},
            (uri) => text(uri, 'staff only'),
          );
        },
      },
    },
    more,
  );

const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});
async function serve(more?: McpMountOptions): Promise<string> {
  const app = new Hono();
  app.all('/mcp', mcp([ping], options(more)));
  const r = await listen(app.fetch);
  running.push(r);
  return r.url;
}

/** An official client of `era`, sending `scope` in a signed token (none: no token). */
async function client(era: SdkEra, url: string, scope?: string): Promise<any> {
  const token = scope === undefined ? undefined : await issuer.sign({ sub: 'ada', scope });
  if (era === 'modern') {
    const c = new ClientV2({ name: 'feature-access', version: '1.0.0' }, MODERN);
    const authProvider = token === undefined ? undefined : { token: async () => token };
    await c.connect(new TransportV2(new URL(url), { authProvider }));
    return c;
  }
  const c = new ClientV1({ name: 'feature-access', version: '1.0.0' });
  const requestInit = token === undefined ? undefined : { headers: { authorization: `Bearer ${token}` } };
  await c.connect(new TransportV1(new URL(url), { requestInit }));
  return c;
}

const names = (list: Array<{ name: string }>) => list.map((i) => i.name).sort();

describe.each(sdkEras)('prompts and resources under the access rules (%s client)', (era) => {
  it("lists only what the caller's scopes allow, and answers a get or read without them with 403", async () => {
    const url = await serve();
    for (const scope of [undefined, 'notes:read']) {
      const c = await client(era, url, scope);
      try {
        expect(names((await c.listPrompts()).prompts)).toEqual(['greet']);
        expect(names((await c.listResources()).resources)).toEqual(['readme']);
        await expect(c.getPrompt({ name: 'audit' })).rejects.toThrow(/403|insufficient.scope|Forbidden/i);
        await expect(c.readResource({ uri: 'docs://payroll' })).rejects.toThrow(/403|insufficient.scope|Forbidden/i);
        expect((await c.readResource({ uri: 'docs://readme' })).contents[0].text).toBe('# readme');
      } finally {
        await c.close();
      }
    }
    const granted = await client(era, url, 'audit:read hr:read');
    try {
      expect(names((await granted.listPrompts()).prompts)).toEqual(['audit', 'greet']);
      expect(names((await granted.listResources()).resources)).toEqual(['payroll', 'readme']);
      expect((await granted.getPrompt({ name: 'audit' })).messages[0].content.text).toBe('audit');
      expect((await granted.readResource({ uri: 'docs://payroll' })).contents[0].text).toBe('salaries');
    } finally {
      await granted.close();
    }
  });

  it('lists scoped items anyway under listUnauthorizedTools, and still refuses their get', async () => {
    const c = await client(era, await serve({ access: { listUnauthorizedTools: true } }), 'notes:read');
    try {
      expect(names((await c.listPrompts()).prompts)).toEqual(['audit', 'greet']);
      await expect(c.getPrompt({ name: 'audit' })).rejects.toThrow(/403|insufficient.scope|Forbidden/i);
    } finally {
      await c.close();
    }
  });

  it('hides what visibleFeatures hides: not listed, and answered as unknown', async () => {
    const seen: string[] = [];
    const url = await serve({
      access: {
        visibleFeatures: ({ authInfo }) => {
          const staff = authInfo?.scopes.includes('staff') === true;
          return (item) => {
            seen.push(`${item.kind}:${item.name}:${item.uri}`);
            return staff || (item.name !== 'greet' && item.kind !== 'resource-template');
          };
        },
      },
    });
    const c = await client(era, url, 'notes:read');
    try {
      expect(names((await c.listPrompts()).prompts)).toEqual([]);
      await expect(c.getPrompt({ name: 'greet', arguments: { who: 'x' } })).rejects.toThrow(/not found/i);
      expect(names((await c.listResourceTemplates()).resourceTemplates)).toEqual([]);
      await expect(c.readResource({ uri: 'notes://staff/1' })).rejects.toThrow(/not found/i);
      expect(seen).toContain('resource-template:staff-note:notes://staff/{id}');
      expect(seen).toContain('resource:readme:docs://readme');
    } finally {
      await c.close();
    }
    const staff = await client(era, url, 'staff');
    try {
      expect(names((await staff.listPrompts()).prompts)).toEqual(['greet']);
      expect((await staff.readResource({ uri: 'notes://staff/1' })).contents[0].text).toBe('staff only');
    } finally {
      await staff.close();
    }
  });
});
