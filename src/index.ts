/**
 * @module
 * The root entry (`mcp-mount`): what an app author calls beside their framework's mount (tool definitions,
 * the startup probe, protected-resource metadata, projections) and the types of options, context, reports
 * and issues. The fetch-shaped core is `mcp-mount/adapter`; the schema lockfile `mcp-mount/lockfile`.
 */
export type { JsonSchema } from './core/json-schema/types.js';
export {
  AUTO_PROJECTIONS,
  type AutoRule,
  autoProjection,
  type ClientIdentity,
  type ProjectionChooser,
  type ProjectionRequest,
} from './core/mount/client-identity.js';
export { formatSchemaIssues } from './core/mount/format-issues.js';
export type {
  AccessOptions,
  AuthOptions,
  CallEvent,
  Caller,
  CorsOptions,
  ErrorInfo,
  ErrorPhase,
  ExtendOption,
  FeatureItem,
  IgnoredKey,
  LimitsOptions,
  McpMountOptions,
  MountExtend,
  ObserveOptions,
  PrepareOptions,
  ProjectionOption,
  ProjectionOptions,
  ProtocolOptions,
  RateLimiter,
  RateLimitOptions,
  RateWindow,
  RefusalEvent,
  RefusalReason,
  RepairOptions,
  SchemaValidationOptions,
  VerifiedToken,
  VisibilityContext,
  VisibleFeatures,
  VisibleTools,
} from './core/mount/options.js';
export {
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
export {
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
} from './core/serve/resource-metadata.js';
