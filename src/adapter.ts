/**
 * @module
 * The entry for adapters (`mcp-mount/adapter`): the fetch-shaped core every framework adapter wraps.
 * An app mounts through its framework's entry (`mcp-mount/hono`, `/express`, `/next`, `/fetch`); this is
 * for writing an adapter for another framework, or for serving web `Request`s directly.
 */
export { connectionAddress } from './core/http/connection.js';
export { createMcpFetchHandler } from './core/serve/create-handler.js';
export { createPrebuiltMcpFetchHandler, type PrebuiltOptions } from './core/serve/create-prebuilt-handler.js';
export type { FetchExtras, McpFetchHandler } from './core/serve/handler.js';
