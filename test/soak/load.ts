/**
 * Load for the soak tests: a server child process (test/soak/server.ts) driven over keep-alive HTTP/1.1
 * connections with a fixed mix of requests from both protocol eras, and its heap read after full collections.
 */
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const serverScript = (adapter: string) =>
  fileURLToPath(new URL(adapter === 'next' ? './next-server.mjs' : './server.ts', import.meta.url));

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' },
};

const media = [{ url: 'https://example.com/1.png' }, { url: 'https://example.com/2.png' }];

/** One request of the mix, and the text its response must contain. */
interface Shot {
  body: string;
  headers: Record<string, string>;
  expect: string;
}

function shot(era: 'legacy' | 'modern', method: string, params: Record<string, unknown>, expect: string): Shot {
  const modern = era === 'modern';
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (modern) {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = method;
    if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  }
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: modern ? { ...params, _meta: modernMeta } : params,
  });
  return { body, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, expect };
}

/** tools/list, a valid call, a repaired call (an array sent as JSON text, a number as a string), an invalid call. */
export const mix: readonly Shot[] = (['legacy', 'modern'] as const).flatMap((era) => [
  shot(era, 'tools/list', {}, '"send_message"'),
  shot(era, 'tools/call', { name: 'search_notes', arguments: { query: 'soak', limit: 1 } }, 'First note about soak'),
  shot(era, 'tools/call', { name: 'search_notes', arguments: { query: 'soak', limit: '1' } }, 'First note about soak'),
  shot(
    era,
    'tools/call',
    { name: 'send_message', arguments: { chatId: 'c', type: 'mediaGroup', media: JSON.stringify(media) } },
    '\\"attachments\\":2',
  ),
  shot(
    era,
    'tools/call',
    { name: 'send_message', arguments: { chatId: 'c', type: 'mediaGroup', media: [{ url: 42 }, media[1]] } },
    'media[0].url',
  ),
]);

export interface SoakServer {
  /** Sends `count` requests of the mix over `connections` keep-alive connections; returns the failures seen. */
  drive(count: number, connections: number): Promise<string[]>;
  /** The server's heap in bytes after full collections (and the finalizers they queue) have run. */
  heap(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts the soak server for `adapter` with `--expose-gc`: test/soak/server.ts for `hono`, `express`,
 * and `fetch`, test/soak/next-server.mjs (the built Next.js example) for `next`.
 */
export async function startSoakServer(adapter: string): Promise<SoakServer> {
  const execArgv = adapter === 'next' ? ['--expose-gc'] : ['--expose-gc', '--import', 'tsx'];
  const child = fork(serverScript(adapter), [adapter], {
    execArgv,
    stdio: 'pipe',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const { port } = await reply<{ port: number }>(child, undefined, log);
  let sent = 0;
  const post = (agent: http.Agent, s: Shot) =>
    new Promise<string | undefined>((resolve) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: s.headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () =>
            resolve(
              res.statusCode === 200 && text.includes(s.expect)
                ? undefined
                : `${res.statusCode}: ${text.slice(0, 200)}`,
            ),
          );
        },
      );
      req.on('error', (error) => resolve(String(error)));
      req.end(s.body);
    });
  return {
    async drive(count, connections) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
      const failures: string[] = [];
      let left = count;
      const worker = async () => {
        while (left > 0) {
          left--;
          const failure = await post(agent, mix[sent++ % mix.length]!);
          if (failure) failures.push(failure);
        }
      };
      await Promise.all(Array.from({ length: connections }, worker));
      agent.destroy();
      return failures;
    },
    heap: async () => (await reply<{ heapUsed: number }>(child, 'heap', log)).heapUsed,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

function reply<T>(child: ChildProcess, message: string | undefined, log: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`soak server exited (${code}):\n${log}`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as T);
    });
    if (message !== undefined) child.send(message);
  });
}
