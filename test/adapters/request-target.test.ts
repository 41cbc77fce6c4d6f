/**
 * Access decisions rest on headers and configuration, never on the request target. Over real HTTP on the Node
 * adapters (Hono, Express, the fetch adapter on @hono/node-server), a request sent with an absolute-form target
 * (`POST https://evil.example/mcp HTTP/1.1`, which Node's servers turn into the request's URL) gets exactly
 * the answer its twin with an origin-form target (`POST /mcp`) and the same headers gets: the same status, the
 * same CORS headers, and a 401's `resource_metadata` on the host `Host` names (its scheme is the one the
 * runtime reports, which for an absolute-form target is the target's: compared without it).
 */
import { request as httpRequest } from 'node:http';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nodeAdapters } from './support/served.js';
import { jsonRpcHeaders, rpc } from './support/tools.js';

const ping = defineTool({ name: 'ping', input: z.object({}), handler: () => 'pong' });

const adapters: Record<string, (options: McpMountOptions) => Promise<{ url: string; close(): Promise<void> }>> =
  Object.fromEntries(
    Object.entries(nodeAdapters).map(([name, on]) => [name, (options: McpMountOptions) => on([ping], options)]),
  );

interface Answer {
  status: number;
  allowOrigin?: string;
  allowCredentials?: string;
  challenge?: string;
}

/** One POST to the server at `port` with exactly this request target and these headers. */
function send(port: number, target: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: target, headers, setHost: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ...(res.headers['access-control-allow-origin'] && {
              allowOrigin: String(res.headers['access-control-allow-origin']),
            }),
            ...(res.headers['access-control-allow-credentials'] && {
              allowCredentials: String(res.headers['access-control-allow-credentials']),
            }),
            ...(res.headers['www-authenticate'] && {
              challenge: String(res.headers['www-authenticate']).replace(
                /resource_metadata="https?:/,
                'resource_metadata="',
              ),
            }),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(rpc('tools/call', { name: 'ping', arguments: {} }));
  });
}

const configs: Record<string, McpMountOptions> = {
  default: {},
  'hosts set': { access: { hosts: ['127.0.0.1', 'localhost'] } },
  'cors with credentials': { access: { cors: { credentials: true } } },
  'cors, hosts and auth': {
    access: {
      cors: { credentials: true },
      hosts: ['127.0.0.1', 'localhost'],
      auth: { verify: () => undefined },
    },
  },
};

describe.each(Object.keys(adapters))('the request target on %s', (name) => {
  it.each(Object.keys(configs))('never changes an access decision (%s)', async (config) => {
    const server = await adapters[name]!(configs[config]!);
    const port = Number(new URL(server.url).port);
    const self = `127.0.0.1:${port}`;
    try {
      const targets = [
        'https://evil.example/mcp',
        'http://evil.example/mcp',
        `https://${self}/mcp`,
        `http://localhost:${port}/mcp`,
      ];
      const hosts = [self, `localhost:${port}`, 'evil.example'];
      const origins = [
        undefined,
        'https://evil.example',
        'http://evil.example',
        `https://${self}`,
        `http://${self}`,
        'http://localhost:5173',
      ];
      for (const host of hosts) {
        for (const origin of origins) {
          const headers = { ...jsonRpcHeaders, host, ...(origin && { origin }) };
          const twin = await send(port, '/mcp', headers);
          for (const target of targets) {
            const answer = await send(port, target, headers);
            expect(answer, `${target} with Host ${host}, Origin ${origin}`).toEqual(twin);
          }
        }
      }
    } finally {
      await server.close();
    }
  });

  it('refuses the browser origin an absolute-form target names, with no CORS headers', async () => {
    const server = await adapters[name]!(configs['cors with credentials']!);
    const port = Number(new URL(server.url).port);
    try {
      const headers = { ...jsonRpcHeaders, host: `127.0.0.1:${port}`, origin: 'https://evil.example' };
      expect(await send(port, 'https://evil.example/mcp', headers)).toEqual({ status: 403 });
    } finally {
      await server.close();
    }
  });

  it('points a 401 at the protected-resource metadata on the host Host names', async () => {
    const server = await adapters[name]!(configs['cors, hosts and auth']!);
    const port = Number(new URL(server.url).port);
    try {
      const headers = { ...jsonRpcHeaders, host: `localhost:${port}` };
      const answer = await send(port, 'http://evil.example/mcp', headers);
      expect(answer.status).toBe(401);
      expect(answer.challenge).toContain(
        `resource_metadata="//localhost:${port}/.well-known/oauth-protected-resource/mcp"`,
      );
    } finally {
      await server.close();
    }
  });
});
