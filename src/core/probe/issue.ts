/**
 * One finding of the schema probe (`validateMcpSchemas`) or the mount's startup check.
 * Codes, severities and profiles: docs/design/probe.md.
 */
export interface SchemaIssue {
  /** Tool name as given to `defineTool`; for `side` `prompt` or `resource`, that prompt's or resource's name. */
  tool: string;
  /** JSON Pointer (RFC 6901) into the served document; `""` is the root. */
  path: string;
  /** Stable machine-readable code, e.g. `root-not-object`, `union-not-flattened`. */
  code: string;
  /** What is wrong and what to change. */
  message: string;
  /**
   * `error` blocks serving under `policy: 'throw'`; `warning` is reported only; `info` says where a client
   * projection narrowed the document (docs/design/projections.md).
   */
  severity: 'error' | 'warning' | 'info';
  /**
   * Which served document the pointer is into (default `input`); `prompt` and `resource` are what the
   * `server` hook registers, `server` the hook itself.
   */
  side?: 'input' | 'output' | 'name' | 'prompt' | 'resource' | 'server';
  /** The client profile that raised it, when it came from a profile. */
  profile?: string;
  /** The projection whose document `path` points into, for an input-side issue (`faithful`, `flat`, `cursor`...). */
  projection?: string;
}
