/**
 * A real `redis-server` (Debian's; `.ci/run` installs it when missing) on a free loopback port, with nothing
 * saved to disk, for the tests of the `redis` project.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../adapters/support/processes.js';

export interface RunningRedis {
  port: number;
  /** A new client of this server (disconnected by `stop`). */
  client(): Promise<Redis>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const server: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const failed = new Promise<never>((_, reject) =>
    server.once('error', (error) =>
      reject(new Error(`redis-server could not start (apt-get install -y redis-server): ${error.message}`)),
    ),
  );
  const clients: Redis[] = [];
  const client = async () => {
    const redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    clients.push(redis);
    await Promise.race([redis.ping(), failed]);
    return redis;
  };
  // Ready once it answers PING.
  for (let tries = 0; ; tries++) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await Promise.race([probe.connect(), failed]);
      await probe.ping();
      probe.disconnect();
      break;
    } catch (error) {
      probe.disconnect();
      if (tries > 50 || server.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    port,
    client,
    async stop() {
      for (const c of clients) c.disconnect();
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    },
  };
}
