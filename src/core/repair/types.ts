/** Public shapes of argument repair. See `repairArgs` and docs/design/repair.md. */

export interface RepairOptions {
  /** Parse JSON text where the schema expects an array or object and accepts no string. Default true (`repair.json`). */
  json?: boolean;
  /** Convert `"42"`, `"true"`/`"false"` and `"null"` where the schema expects that kind and accepts no string. Default true (`repair.scalars`). */
  scalars?: boolean;
  /**
   * Read `null` sent for an optional object key whose schema refuses null as the key left out: the key is
   * omitted before the parse. Clients that list every key in `required` (OpenAI strict mode) send null for
   * a key the model leaves out. Default true.
   */
  nullAsAbsent?: boolean;
  /** Most nesting levels (arrays/objects, counted from the arguments' root) a value produced by parsing may reach. Default `DEFAULT_MAX_DEPTH` (64). */
  maxDepth?: number;
  /** Most UTF-8 bytes in one string that repair will parse. Default `DEFAULT_MAX_STRING_BYTES` (1 MiB). */
  maxStringBytes?: number;
  /**
   * Most values parsed out of JSON text in one call (more is refused with an issue), and most sent values the
   * schema walk visits (past that repair gives up and returns the arguments as sent, without an issue).
   * Default `DEFAULT_MAX_NODES` (1,000,000).
   */
  maxNodes?: number;
}

/** Which repairs are switched on, resolved from `RepairOptions`; the fit checks count a string as fitting only if it would be repaired. */
export interface RepairSwitches {
  json: boolean;
  scalars: boolean;
  nullAsAbsent: boolean;
}

/**
 * What a repaired position was sent as. `empty-arguments`: the whole `arguments` sent as `""` or `[]`, how
 * several clients encode "no arguments", read as `{}` (the envelope step; path `''`).
 */
type RepairFrom =
  | 'json-string'
  | 'number-string'
  | 'boolean-string'
  | 'null-string'
  | 'null-as-absent'
  | 'empty-arguments';

/** One repaired position, for hooks and logs (`ctx.repairs`). */
export interface Repair {
  /** `media`, `media[0].url`; `''` for the whole arguments object. */
  path: string;
  from: RepairFrom;
}

/** A refusal raised by repair itself (a limit, a cycle, or a list written as text where a string is also valid). */
export interface RepairIssue {
  path: Array<string | number>;
  message: string;
}

export interface RepairResult {
  /** The repaired arguments. The caller's object is never mutated; unchanged subtrees are shared. */
  value: unknown;
  repairs: Repair[];
  /** Non-empty means the call must be refused with these messages (the value is still returned). */
  issues: RepairIssue[];
  /** Values the walk visited, sent and parsed out of text: its work, linear in the arguments' size. */
  visited: number;
}
