/**
 * @module
 * The root entry (`mcp-mount`): what an app author calls beside their framework's mount (tool definitions,
 * the startup probe, protected-resource metadata, projections) and the types of options, context, reports
 * and issues. The fetch-shaped core is `mcp-mount/adapter`; the schema lockfile `mcp-mount/lockfile`.
 */

export {
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
} from './core/access/resource-metadata.js';
export type { JsonSchema } from './core/json-schema/types.js';
export type { ServerHook, ServerHookContext } from './core/model/features.js';
export {
  type AnyTool,
  type AnyZodObject,
  type DefineToolFor,
  defineTool,
  type MountableTool,
  type TaskContext,
  type ToolContext,
  type ToolDefinition,
  type ToolNeeds,
  type ToolReturn,
  type ToolScopes,
  type ToolSignals,
} from './core/model/tool.js';
export { ToolError } from './core/model/tool-error.js';
export {
  AUTO_PROJECTIONS,
  type AutoRule,
  autoProjection,
  type ClientIdentity,
  type ProjectionChooser,
  type ProjectionRequest,
} from './core/prepare/client-identity.js';
export { formatSchemaIssues } from './core/probe/format-issues.js';
export type { SchemaIssue, SchemaIssueCode } from './core/probe/issue.js';
export { McpMountSchemaError } from './core/probe/schema-error.js';
export { PROJECTION_NAMES, type ProjectionName } from './core/projection/names.js';
export type { Repair } from './core/repair/index.js';
export type {
  AccessOptions,
  ArgumentsOptions,
  AuthOptions,
  CallEvent,
  Caller,
  CorsOptions,
  DocumentsOption,
  DocumentsOptions,
  ErrorInfo,
  ErrorPhase,
  ExtendOption,
  FeatureItem,
  IgnoredKey,
  LimitsOptions,
  McpMountOptions,
  MountExtend,
  MountServerOptions,
  ObserveOptions,
  ProjectionOption,
  ProjectionOptions,
  ProtocolOptions,
  RateLimiter,
  RateLimitOptions,
  RateWindow,
  RefusalEvent,
  RefusalReason,
  RequestClient,
  SchemaValidationOptions,
  TaskEvent,
  TaskEventKind,
  TasksOptions,
  ToolTaskOptions,
  VerifiedToken,
  VisibilityContext,
  VisibleFeatures,
  VisibleTools,
} from './core/serve/options.js';
export type { TaskRunReport } from './core/serve/task-consumer.js';
export {
  type ProjectionReport,
  type ServedTool,
  type ValidationReport,
  validateMcpSchemas,
} from './core/serve/validate.js';
export type { TaskJob } from './core/tasks/options.js';
