/** Reading a V8 CPU profile (`.cpuprofile`) of a Worker's startup. */
import { median } from '../median.js';

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Microseconds per node id: each sample is charged the time until the next sample (as DevTools does), the
 * last one at most the median interval. Startup profiles end with a stretch of 20 to 50 ms that holds no
 * sample before `Profiler.stop` arrives, in about half of them and in every flavour; charged whole, it went to
 * whichever function happened to be sampled last (`Response`, a GC) and made the medians swing.
 */
export function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  let at = profile.startTime;
  const stamps = timeDeltas.map((d) => (at += d));
  const interval = timeDeltas.length > 0 ? median(timeDeltas) : 0;
  for (let i = 0; i < samples.length; i++) {
    const next = i + 1 < samples.length ? stamps[i + 1]! : Math.min(profile.endTime, stamps[i]! + interval);
    times.set(samples[i]!, (times.get(samples[i]!) ?? 0) + Math.max(0, next - stamps[i]!));
  }
  return times;
}

/** Sampled time outside `(idle)`, in ms: the isolate's CPU during startup (JavaScript, compilation, GC). */
export function activeMs(profile: CpuProfile): number {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let total = 0;
  for (const [id, us] of selfTimes(profile)) if (!idle.has(id)) total += us;
  return total / 1000;
}

/** The profile's window, in ms: from `Profiler.start` to `Profiler.stop`, idle time included. */
export const windowMs = (profile: CpuProfile) => (profile.endTime - profile.startTime) / 1000;

/** Where a sampled frame's code came from, through the bundle's source map. */
export type Locate = (line: number, column: number) => { source: string; name?: string; line: number } | undefined;

/** Startup phases, matched from the sampled frame outwards: the innermost frame that names one decides. */
const PHASES: ReadonlyArray<[string, RegExp]> = [
  ['probe', /^src\/core\/probe\//],
  ['projection', /^src\/core\/projection\//],
  ['startup check (stamps)', /^src\/core\/documents\/(stamps|read)/],
  ['Zod conversion (z.toJSONSchema)', /^src\/core\/zod\/|zod\/v4\/core\/(to-)?json-schema/],
  ['build-time documents', /^src\/core\/mount\/built-documents|\/documents-[^/]+\.js$/],
];
const OTHER_OWN = 'other mcp-mount code (mount, serving)';
const SDK = 'SDK (@modelcontextprotocol/*)';
const EVALUATION = 'module evaluation (Zod schemas, tools, module bodies)';

/** The startup's sampled time (idle left out) by phase, in ms, and the functions with the most self time. */
export function breakdown(profile: CpuProfile, locate: Locate) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const where = (id: number) => {
    const { url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    // A position of -1 is code with no function of its own (a module's top level).
    return /worker\.js$/.test(url) && lineNumber >= 0 ? locate(lineNumber, columnNumber) : undefined;
  };
  const phases: Record<string, number> = {};
  const functions: Record<string, number> = {};
  for (const [id, us] of selfTimes(profile)) {
    const phase = phaseOf(id, byId.get(id)!.callFrame.functionName, where, parent);
    if (phase === undefined) continue;
    phases[phase] = (phases[phase] ?? 0) + us / 1000;
    const at = where(id);
    const { functionName: name, url } = byId.get(id)!.callFrame;
    const fn = at
      ? `${at.name ?? '(anonymous)'} ${at.source}:${at.line + 1}`
      : name || `(top level of ${url.split('/').pop()})`;
    functions[fn] = (functions[fn] ?? 0) + us / 1000;
  }
  return { phases, functions };
}

function phaseOf(
  id: number,
  functionName: string,
  where: (id: number) => { source: string } | undefined,
  parent: Map<number, number>,
): string | undefined {
  if (functionName === '(idle)') return undefined;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'runtime ((program): compilation, native code)';
  const sources: string[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const source = where(at)?.source;
    if (source === undefined) continue;
    const phase = PHASES.find(([, test]) => test.test(source));
    if (phase) return phase[0];
    sources.push(source);
  }
  if (sources.some((s) => s.startsWith('src/'))) return OTHER_OWN;
  if (sources.some((s) => s.includes('@modelcontextprotocol/'))) return SDK;
  return EVALUATION;
}
