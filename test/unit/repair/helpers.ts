import type { z } from 'zod';
import { formatIssues } from '../../../src/core/messages/index.js';
import { repairArgs } from '../../../src/core/repair/index.js';
import type { RepairOptions, RepairResult } from '../../../src/core/repair/types.js';

export interface Outcome {
  repair: RepairResult;
  /** What the handler would get: the single Zod parse of the repaired value, or undefined when refused. */
  ok: boolean;
  data: unknown;
  /** The isError text lines when refused (repair issues first, else Zod's). */
  lines: string[];
}

/**
 * The call pipeline at unit level: repair, refuse on repair issues, else one Zod parse.
 * `sent` is what arrives in `arguments`; pass JSON text through `wire()` to mimic the transport.
 */
export function call(schema: z.ZodType, sent: unknown, options?: RepairOptions): Outcome {
  const repair = repairArgs(sent, schema, options);
  if (repair.issues.length > 0) return { repair, ok: false, data: undefined, lines: formatIssues(repair.issues) };
  const parsed = schema.safeParse(repair.value);
  if (parsed.success) return { repair, ok: true, data: parsed.data, lines: [] };
  return { repair, ok: false, data: undefined, lines: formatIssues(parsed.error, schema, repair.value) };
}

/** `arguments` as a client puts it on the wire: JSON text parsed by the transport. */
export function wire(json: string): unknown {
  return JSON.parse(json);
}

/** True when some line of an isError text names `path` as its path (`path: ...` or in a key list). */
export function names(lines: string[], path: string): boolean {
  return lines.some((line) => {
    const head = line.slice(0, line.indexOf(': '));
    return head.split(', ').includes(path);
  });
}
