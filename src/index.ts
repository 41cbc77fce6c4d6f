export type { JsonSchema } from './core/json-schema/types.js';
export { AUTO_PROJECTIONS, type AutoRule, autoProjection, type ClientIdentity } from './core/mount/client-identity.js';
export type {
  AuthOptions,
  CallEvent,
  Caller,
  CorsOptions,
  ErrorInfo,
  ExtendOption,
  IgnoredKey,
  McpMountOptions,
  MountExtend,
  PrepareOptions,
  SchemaValidationOptions,
  VisibilityContext,
  VisibleTools,
} from './core/mount/options.js';
export {
  formatSchemaIssues,
  type ProjectionReport,
  type ServedTool,
  type ValidationReport,
  validateMcpSchemas,
} from './core/mount/report.js';
export { McpMountSchemaError } from './core/mount/schema-error.js';
export type { ServerHook, ServerHookContext } from './core/mount/server-hook.js';
export {
  type AnyTool,
  type AnyZodObject,
  defineTool,
  type MountableTool,
  type ToolContext,
  type ToolDefinition,
  type ToolScopes,
  type ToolSignals,
} from './core/mount/tool.js';
export { ToolError } from './core/mount/tool-error.js';
export type { SchemaIssue, SchemaIssueCode } from './core/probe/issue.js';
export { PROJECTION_NAMES, type ProjectionName } from './core/projection/names.js';
export type { Repair } from './core/repair/index.js';
export { createMcpFetchHandler, type FetchExtras, type McpFetchHandler } from './core/serve/handler.js';
export {
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
} from './core/serve/resource-metadata.js';
export { diffSchemaLock, type SchemaLockChange, type SchemaLockDiff, writeSchemaLock } from './lockfile/lockfile.js';
