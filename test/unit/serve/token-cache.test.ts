/**
 * The verification cache hands each request its own `AuthInfo`: what a tool does to `ctx.authInfo` (adding a
 * scope, changing `extra`) or what `verify` does to its answer later never reaches the next request's.
 */
import { describe, expect, it } from 'vitest';
import { tokenCache } from '../../../src/core/access/token-cache.js';

const answer = () => ({
  token: 'alice-token',
  clientId: 'app',
  scopes: ['read'],
  expiresAt: Date.now() / 1000 + 3600,
  extra: { sub: 'alice', groups: ['staff'] },
});

describe('the token cache', () => {
  it("keeps its own copy: a request that changes its AuthInfo changes no later request's", async () => {
    const cache = tokenCache(10, 600);
    const verified = answer();
    await cache.set('alice-token', verified);
    verified.scopes.push('admin');
    const first = await cache.get('alice-token');
    if (!first) throw new Error('the answer was not kept');
    first.scopes.push('admin');
    const extra = first.extra as { sub: string; groups: string[] };
    extra.sub = 'root';
    extra.groups.push('admins');
    const second = await cache.get('alice-token');
    expect(second).toEqual({ ...answer(), expiresAt: verified.expiresAt });
  });

  it('keeps a resource URL a URL', async () => {
    const cache = tokenCache(10, 600);
    await cache.set('t', { ...answer(), token: 't', resource: new URL('https://mcp.example.com/mcp') });
    expect((await cache.get('t'))?.resource?.href).toBe('https://mcp.example.com/mcp');
  });
});
