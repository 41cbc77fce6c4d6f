/**
 * Real runtimes as child processes on loopback: `next start` and `wrangler dev` (workerd). Each is started
 * in its own process group and stopped by that group's id, so nothing else on the machine is touched.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningProcess {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `node <script> ...args` from the repo root (or `cwd`) and waits until `origin + readyPath` answers at all
 * with a status below 500, the process exits, or `timeoutMs` passes. With `readyLine`, the origin is the one the
 * process names in its output (its first capture group) once it prints it: a server that moved off the port it
 * was asked for is then not mistaken for whatever answers on that port.
 */
export async function startProcess(
  script: string,
  args: string[],
  {
    origin,
    readyPath = '/',
    timeoutMs = 60_000,
    env = {},
    cwd = repoRoot,
    readyLine,
  }: {
    origin: string;
    readyPath?: string;
    timeoutMs?: number;
    env?: Record<string, string>;
    cwd?: string;
    readyLine?: RegExp;
  },
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => {
    log += d;
  });
  child.stderr?.on('data', (d) => {
    log += d;
  });
  const running: RunningProcess = { origin, output: () => log, stop: () => stop(child) };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${script} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${log}`);
    }
    const named = readyLine?.exec(log)?.[1];
    if (readyLine && named === undefined) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    if (named !== undefined) running.origin = named.replace(/\/+$/, '');
    try {
      const response = await fetch(running.origin + readyPath, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status < 500) return running;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await running.stop();
  throw new Error(`${script} was not ready within ${timeoutMs} ms:\n${log}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * `next start` on a built Next.js app: the example by default (`next build examples/next` must have run: see
 * build.global.ts), or the app at `app` (a path from the repository's root).
 */
export async function startNext(app = 'examples/next'): Promise<RunningProcess> {
  const port = await freePort();
  return startProcess('node_modules/next/dist/bin/next', ['start', app, '-p', String(port), '-H', '127.0.0.1'], {
    origin: `http://127.0.0.1:${port}`,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
  });
}

/**
 * `wrangler dev` (workerd, local only) on a wrangler config, e.g. the Cloudflare Worker example's; started in
 * `cwd` (a project of its own, whose build command wrangler runs there) with `env` added. A port asked of the OS
 * is free when asked, but workerd binds sockets of its own on ports the OS picks as it starts, so another
 * process (or workerd itself) can take it first: a start that fails with "Address already in use" is tried again
 * on fresh ports, three times in all.
 */
export async function startWrangler(
  config: string,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<RunningProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWranglerOnce(config, options);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('Address already in use')) throw error;
    }
  }
}

async function startWranglerOnce(
  config: string,
  { cwd, env = {} }: { cwd?: string; env?: Record<string, string> },
): Promise<RunningProcess> {
  const port = await freePort();
  const inspector = await freePort();
  return startProcess(
    `${repoRoot}node_modules/wrangler/bin/wrangler.js`,
    ['dev', '-c', config, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector)],
    {
      origin: `http://127.0.0.1:${port}`,
      // The origin wrangler names once it is ready: nothing else that answers on the port is taken for it.
      readyLine: /Ready on (http:\/\/127\.0\.0\.1:\d+)/,
      timeoutMs: 90_000,
      // NODE_ENV=test: Miniflare uses its built-in `request.cf` instead of fetching one from the network.
      env: {
        NODE_ENV: 'test',
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_SEND_ERROR_REPORTS: 'false',
        CI: 'true',
        ...env,
      },
      ...(cwd !== undefined && { cwd }),
    },
  );
}
