/**
 * The audit trail of refusals (`observe.onRefusal`) over real HTTP: each kind of refusal produces exactly one
 * event, with the caller and the tool where the mount knows them, and the response is the one the client
 * gets without the hook (a throwing hook changes nothing either).
 */

import { requireScopes } from '@modelcontextprotocol/server';
import { defineTool, type McpMountOptions, type RefusalEvent } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc } from '../adapters/support/tools.js';
import { mergedOptions } from '../support/options.js';
import { listen, type Running } from '../support/server.js';

const plain = defineTool({ name: 'read_note', input: z.object({}), handler: () => 'note' });
const scoped = defineTool({
  name: 'archive_note',
  scopes: ['notes:write'],
  input: z.object({}),
  handler: () => 'done',
});
const secret = defineTool({ name: 'admin_panel', input: z.object({}), handler: () => 'admin' });

/** `Bearer <clientId>:<scope,scope>` is a valid token of that client with those scopes; `Bearer bad` is not. */
const verify = (token: string) => {
  const [clientId, scopes = ''] = token.split(':');
  if (clientId === 'bad') return undefined;
  return { token, clientId: clientId!, scopes: scopes.split(',').filter(Boolean), expiresAt: 'never' as const };
};

let running: Running | undefined;
afterEach(() => running?.close());

async function serve(options: McpMountOptions = {}) {
  const events: RefusalEvent[] = [];
  const base: McpMountOptions = {
    access: { auth: { verify, required: false }, visibleTools: () => ['read_note', 'archive_note'] },
    observe: { onRefusal: (e) => events.push(e), logger: { warn() {}, error() {} } },
    limits: { maxRequestBodyBytes: 512 },
  };
  const handler = createMcpFetchHandler([plain, scoped, secret], mergedOptions(base, options));
  running = await listen(handler.fetch);
  return { url: running.url, events };
}

/** What each event says of where a request came from: the `User-Agent` every request here sends. */
const CLIENT = { userAgent: 'audit-test/1' };
const send = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...jsonRpcHeaders, 'user-agent': CLIENT.userAgent, ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
};
const call = (name: string, id = 5) => rpc('tools/call', { name, arguments: {} }, id);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** The one event a 403 for a missing scope gives, for caller `ada`. */
const scopeRefusal = (method: string, requestId: number, more: Partial<RefusalEvent> = {}): RefusalEvent => ({
  reason: 'insufficient-scope',
  status: 403,
  message: 'Insufficient scope',
  method,
  ...more,
  requestId,
  caller: { clientId: 'ada' },
  client: CLIENT,
});

describe('one audit event per refusal', () => {
  it('401 for a bad token, a missing token (required), and a scoped call without a token', async () => {
    const { url, events } = await serve();
    expect((await send(url, call('read_note'), bearer('bad'))).status).toBe(401);
    expect((await send(url, call('archive_note', 9))).status).toBe(401);
    expect(events).toEqual([
      { reason: 'invalid-token', status: 401, message: 'Invalid token', client: CLIENT },
      {
        reason: 'missing-token',
        status: 401,
        message: 'Authentication required',
        method: 'tools/call',
        tool: 'archive_note',
        requestId: 9,
        client: CLIENT,
      },
    ]);
    const required = await serve({ access: { auth: { verify, required: true } } });
    expect((await send(required.url, call('read_note'))).status).toBe(401);
    expect(required.events).toEqual([
      { reason: 'missing-token', status: 401, message: 'Missing Authorization header', client: CLIENT },
    ]);
  });

  it("403 for a token without the tool's scopes, and without requiredScopes, with the caller", async () => {
    const { url, events } = await serve();
    const refused = await send(url, call('archive_note', 11), bearer('ada:notes:read'));
    expect(refused.status).toBe(403);
    expect(events).toEqual([scopeRefusal('tools/call', 11, { tool: 'archive_note' })]);
    const strict = await serve({ access: { auth: { verify, required: true, requiredScopes: ['mcp'] } } });
    expect((await send(strict.url, call('read_note'), bearer('ada:notes:read'))).status).toBe(403);
    expect(strict.events).toEqual([
      { reason: 'insufficient-scope', status: 403, message: 'Insufficient scope', client: CLIENT },
    ]);
  });

  it('403 for a foreign Origin and a foreign Host, before anything is read', async () => {
    const { url, events } = await serve({ access: { hosts: ['127.0.0.1'] } });
    expect((await send(url, call('read_note'), { origin: 'https://evil.example' })).status).toBe(403);
    const host = await new Promise<number>((resolve, reject) => {
      // fetch will not send another Host; a raw request does.
      import('node:http').then(({ request }) => {
        const req = request(url, { method: 'POST', headers: { ...jsonRpcHeaders, host: 'evil.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(call('read_note'));
      });
    });
    expect(host).toBe(403);
    expect(events.map((e) => [e.reason, e.status])).toEqual([
      ['origin', 403],
      ['host', 403],
    ]);
    expect(events[0]!.message).toMatch(/Origin/);
    expect(events[0]!.client).toEqual({ ...CLIENT, origin: 'https://evil.example' });
  });

  it('413 for a body over the limit, with the caller', async () => {
    const { url, events } = await serve();
    const big = rpc('tools/call', { name: 'read_note', arguments: { pad: 'x'.repeat(1000) } });
    expect((await send(url, big, bearer('ada'))).status).toBe(413);
    expect(events).toEqual([
      {
        reason: 'too-large',
        status: 413,
        message: 'Payload Too Large: Request body must not exceed 512 bytes',
        caller: { clientId: 'ada' },
        client: CLIENT,
      },
    ]);
  });

  it('an unknown tool and a hidden one get the same answer, and one event each', async () => {
    const { url, events } = await serve();
    const unknown = await send(url, call('nope', 1), bearer('ada'));
    const hidden = await send(url, call('admin_panel', 2), bearer('ada'));
    const answer = (text: string) => parseBody(text).error?.message ?? parseBody(text).result?.content?.[0]?.text;
    expect(answer(hidden.text)).toBe(answer(unknown.text)?.replace('nope', 'admin_panel'));
    expect(events).toEqual([
      {
        reason: 'unknown-tool',
        message: 'Tool nope not found',
        method: 'tools/call',
        tool: 'nope',
        requestId: 1,
        caller: { clientId: 'ada' },
        client: CLIENT,
      },
      {
        reason: 'unknown-tool',
        message: 'Tool admin_panel not found',
        method: 'tools/call',
        tool: 'admin_panel',
        requestId: 2,
        caller: { clientId: 'ada' },
        client: CLIENT,
      },
    ]);
  });

  it("403 for a prompt get without the prompt's scope, with the caller; a list that leaves it out is no event", async () => {
    const { url, events } = await serve({
      server: {
        features(server) {
          server.registerPrompt('audit', { scopeChallenge: requireScopes('audit:read') }, () => ({
            messages: [{ role: 'user', content: { type: 'text', text: 'audit' } }],
          }));
        },
      },
    });
    const listed = await send(url, rpc('prompts/list', {}, 3), bearer('ada'));
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('audit');
    expect(events).toEqual([]);
    const refused = await send(url, rpc('prompts/get', { name: 'audit' }, 4), bearer('ada'));
    expect(refused.status).toBe(403);
    expect(events).toEqual([scopeRefusal('prompts/get', 4)]);
  });

  it('no event for what is served, and a throwing hook changes no response', async () => {
    const { url, events } = await serve();
    expect((await send(url, call('read_note'), bearer('ada'))).status).toBe(200);
    expect((await send(url, rpc('tools/list'), bearer('ada'))).status).toBe(200);
    expect(events).toEqual([]);
    const errors: unknown[] = [];
    const throwing = await serve({
      observe: {
        onRefusal: () => {
          throw new Error('audit sink down');
        },
        onError: (e) => errors.push(e),
      },
    });
    const refused = await send(throwing.url, call('read_note'), bearer('bad'));
    expect(refused.status).toBe(401);
    expect(errors).toEqual([expect.objectContaining({ message: 'audit sink down' })]);
  });
});
