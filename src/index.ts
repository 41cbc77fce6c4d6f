export { toJsonSchema } from './core/convert.js';
export { formatIssues } from './core/errors/format.js';
export { createMcpHandler, type FetchExtras, type McpMountHandler } from './core/handler.js';
export type { SchemaIssue } from './core/issues.js';
export type { JsonSchema } from './core/json-schema.js';
export { diffSchemaLock, type SchemaLockChange, type SchemaLockDiff, writeSchemaLock } from './core/lockfile.js';
export { McpMountSchemaError } from './core/mount-error.js';
export type {
  CallEvent,
  ExtendOption,
  McpMountOptions,
  PrepareOptions,
  SchemaValidationOptions,
} from './core/options.js';
export { coerceJsonArgs, type Repair, type RepairOptions, type RepairResult, repairArgs } from './core/repair/index.js';
export { flattenUnionsDeep } from './core/schema/index.js';
export { type AnyTool, defineTool, type ToolContext, type ToolDefinition } from './core/tools.js';
export { formatSchemaIssues, type ServedTool, type ValidationReport, validateMcpSchemas } from './core/validate.js';
