/**
 * CPU per request in workerd: a bundle runs in Miniflare's workerd process (one process per Worker), reached
 * on a socket of its own (`unsafeDirectSockets`, not through Miniflare's entry Worker, which costs about
 * 1.5 ms of CPU per request in the same process, and varies), and the process's CPU time (`/proc/<pid>/stat`,
 * utime + stime, all threads; and the main thread's apart) is read before and after a batch of sequential
 * requests. Dividing by the count gives CPU per request, workerd's own HTTP handling included;
 * the caller subtracts the same measure of a trivial Worker.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Miniflare } from 'miniflare';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): [state, ppid, ...]. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return [
      text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
      ...text.slice(text.lastIndexOf(')') + 2).split(' '),
    ];
  } catch {
    return undefined; // the process ended while we looked
  }
}

/** CPU time of process `pid` so far, in ms, user and system apart: every thread, or thread `tid` alone. */
export function cpuTimes(pid: number, tid?: number): { user: number; system: number } {
  const f = statFields(tid === undefined ? pid : `${pid}/task/${tid}`)!;
  return { user: Number(f[12]) * TICK_MS, system: Number(f[13]) * TICK_MS };
}

/** CPU time of process `pid` so far, in ms (user + system): every thread, or thread `tid` alone. */
export function cpuMs(pid: number, tid?: number): number {
  const { user, system } = cpuTimes(pid, tid);
  return user + system;
}

/** The workerd processes this process started. */
function workerdChildren(): Set<number> {
  const found = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (f?.[0] === 'workerd' && Number(f[2]) === process.pid) found.add(Number(entry));
  }
  return found;
}

/** One HTTP request to a Worker. */
export interface WorkerRequest {
  method: string;
  headers: Record<string, string>;
  body: string;
}

export interface RunningWorker {
  pid: number;
  /** The response's text; throws unless it is a 200. */
  fetch(request: WorkerRequest): Promise<string>;
  dispose(): Promise<void>;
}

/** Starts `code` (an ES module Worker) in a workerd process of its own, on a loopback socket. */
export async function startWorker(code: string, compatibilityDate: string): Promise<RunningWorker> {
  const before = workerdChildren();
  const socket = { host: '127.0.0.1', port: 0 };
  const mf = new Miniflare({ modules: true, script: code, compatibilityDate, unsafeDirectSockets: [socket] });
  await mf.ready;
  const url = new URL('/mcp', await mf.unsafeGetDirectURL());
  const started = [...workerdChildren()].filter((pid) => !before.has(pid));
  if (started.length !== 1) throw new Error(`expected one new workerd process, found ${started.length}`);
  return {
    pid: started[0]!,
    async fetch({ method, headers, body }) {
      const response = await fetch(url, { method, headers, body });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
      return text;
    },
    dispose: () => mf.dispose(),
  };
}

/** Mean CPU ms per request of one batch: the whole process (`ms`), and its parts. */
export interface RequestCpu {
  ms: number;
  count: number;
  /** The process's user and system (kernel: socket writes, page faults) time apart. */
  user: number;
  system: number;
  /** workerd's main thread alone (the isolate's, and its socket writes), user and system apart. */
  mainUser: number;
  mainSystem: number;
}

/**
 * Mean CPU ms per request over as many sequential requests as fit in `batchMs` of wall time (at least
 * `minCount`). The tick is 10 ms: a batch should hold 100 ticks or more for 1% resolution.
 */
export async function cpuPerRequest(
  worker: RunningWorker,
  request: WorkerRequest,
  batchMs: number,
  minCount = 5,
): Promise<RequestCpu> {
  const [process, main] = [cpuTimes(worker.pid), cpuTimes(worker.pid, worker.pid)];
  const started = performance.now();
  let count = 0;
  while (count < minCount || performance.now() - started < batchMs) {
    await worker.fetch(request);
    count++;
  }
  const [processAfter, mainAfter] = [cpuTimes(worker.pid), cpuTimes(worker.pid, worker.pid)];
  const per = (after: number, before: number) => (after - before) / count;
  const user = per(processAfter.user, process.user);
  const system = per(processAfter.system, process.system);
  return {
    ms: user + system,
    count,
    user,
    system,
    mainUser: per(mainAfter.user, main.user),
    mainSystem: per(mainAfter.system, main.system),
  };
}

/**
 * CPU for the first import of `code`, in ms: what `wrangler check startup` profiles (a wrapper Worker
 * imports the bundle on its first request), read from `/proc` instead of sampled, so that time the thread
 * waits for a core on a loaded machine does not count. `thread` is workerd's main thread, which runs the
 * isolate; `process` adds V8's helper threads (concurrent compilation and GC marking). With `first`, also
 * the main thread's CPU for that request, sent next: what the isolate's first client pays on top.
 */
export async function startupCpuMs(code: string, compatibilityDate: string, first?: WorkerRequest) {
  const wrapper = `let worker;
    export default {
      async fetch(request, env, ctx) {
        worker ??= (await import('./worker.js')).default;
        return request.method === 'POST' ? worker.fetch(request, env, ctx) : new Response('ok');
      },
    };`;
  const modules = [
    { type: 'ESModule' as const, path: 'main.js', contents: wrapper },
    { type: 'ESModule' as const, path: 'worker.js', contents: code },
  ];
  const before = workerdChildren();
  const socket = { host: '127.0.0.1', port: 0 };
  const mf = new Miniflare({ modules, modulesRoot: '/', compatibilityDate, unsafeDirectSockets: [socket] });
  try {
    await mf.ready;
    const url = await mf.unsafeGetDirectURL();
    const [pid] = [...workerdChildren()].filter((p) => !before.has(p));
    const [thread, process] = [cpuMs(pid!, pid), cpuMs(pid!)];
    const response = await fetch(url);
    if ((await response.text()) !== 'ok') throw new Error(`startup failed: HTTP ${response.status}`);
    const measured = { thread: cpuMs(pid!, pid) - thread, process: cpuMs(pid!) - process, first: Number.NaN };
    if (first === undefined) return measured;
    const started = cpuMs(pid!, pid);
    const answer = await fetch(url, first);
    if (answer.status !== 200) throw new Error(`first request: HTTP ${answer.status}: ${await answer.text()}`);
    await answer.text();
    return { ...measured, first: cpuMs(pid!, pid) - started };
  } finally {
    await mf.dispose();
  }
}
