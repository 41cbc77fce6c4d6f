/**
 * Every code the probe and the preparation emit, grouped by where they come from. What each means, its
 * severity, whether it stops a mount under each policy and how to fix it: docs/design/probe.md, Issue codes.
 * A `const` list so that a test can hold the docs' table to it; the type is what users switch on.
 * @internal exported for its tests alone
 */
export const SCHEMA_ISSUE_CODES = [
  // Base rules, and the document scan around them (`checkDocument`).
  'non-json-value',
  'invalid-json-schema',
  'root-not-object',
  'zod-keys-missing',
  'required-not-in-properties',
  'invalid-enum',
  'ref-not-inlined',
  'duplicate-anchor',
  'union-not-flattened',
  'unsatisfiable',
  'properties-without-object-type',
  'array-without-items',
  'ambiguous-string-union',
  'required-nullable',
  'unknown-profile',
  // Option rules.
  'untyped-property',
  'non-portable-format',
  // Client profiles (a code can belong to several: `type-list` is Gemini's and Cursor's).
  'root-combinator',
  'unsupported-format',
  'additional-properties-not-false',
  'optional-key',
  'open-record',
  'nested-union',
  'type-list',
  'null-branch',
  'union',
  'const',
  'non-string-enum',
  'record-keyword',
  'ref',
  'untyped',
  'combinator',
  'property-name',
  'nullable-type-list',
  'large-bound',
  'long-pattern',
  'untyped-item',
  'deep-nesting',
  'object-literal',
  'prefix-items',
  'unresolved-ref',
  // Tool names and definitions.
  'invalid-tool-name',
  'duplicate-tool-name',
  'invalid-scopes',
  'scopes-without-auth',
  'invalid-tool-field',
  'invalid-icon',
  'invalid-meta-key',
  'reserved-meta-key',
  // The preparation.
  'conversion-failed',
  'output-conversion-failed',
  'key-conflict',
  'narrowed',
  'pattern-flags',
  'unsafe-number',
  'projection-fallback',
  'stale-documents',
  'invalid-option',
  'internal-error',
  // The `features` hook.
  'server-hook-threw',
  'server-hook-registers-tool',
  'prompt-argument-not-string',
  'prompt-arguments-not-object',
  'resource-uri-not-canonical',
  // MCP Apps views.
  'app-view-not-registered',
  'app-view-mime-type',
] as const;

/** A `SchemaIssue` code: one of `SCHEMA_ISSUE_CODES`, so a `switch` over it can be exhaustive. */
export type SchemaIssueCode = (typeof SCHEMA_ISSUE_CODES)[number];

/**
 * One finding of the schema probe (`validateMcpSchemas`) or the mount's startup check.
 * Codes, severities and profiles: docs/design/probe.md.
 */
export interface SchemaIssue {
  /** Tool name as given to `defineTool`; for `side` `prompt` or `resource`, that prompt's or resource's name. */
  tool: string;
  /** JSON Pointer (RFC 6901) into the served document (for `side: 'tool'`, into the definition); `""` is the root. */
  path: string;
  /** Stable machine-readable code, e.g. `root-not-object`, `union-not-flattened`; see `SchemaIssueCode`. */
  code: SchemaIssueCode;
  /** What is wrong and what to change. */
  message: string;
  /**
   * `error` blocks serving under `policy: 'throw'`; `warning` is reported only; `info` says where a client
   * projection narrowed the document (docs/design/projections.md).
   */
  severity: 'error' | 'warning' | 'info';
  /**
   * Which served document the pointer is into (default `input`); `tool` is the tool's definition itself
   * (`/scopes`); `prompt` and `resource` are what the `features` hook registers, `server` the hook itself.
   */
  side?: 'input' | 'output' | 'name' | 'tool' | 'prompt' | 'resource' | 'server';
  /** The client profile that raised it, when it came from a profile. */
  profile?: string;
  /** The projection whose document `path` points into, for an input-side issue (`faithful`, `flat`, `cursor`...). */
  projection?: string;
}
