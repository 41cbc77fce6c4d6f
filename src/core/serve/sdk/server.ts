/**
 * The per-request `McpServer`: capabilities declared from the mount's configuration, the `features` hook run
 * where a request may need what it registers, and the tools the request needs.
 */
import {
  type McpRequestContext,
  McpServer,
  type McpServerOptions,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { recordFeatures, restrictFeatures } from '../../access/features.js';
import type { ServerSurface } from '../../model/features.js';
import type { MountConfig } from '../config.js';
import type { RequestState } from '../request-state.js';
import { guardEdges } from './edges.js';

/** Methods only tools answer: the hook (resources, prompts) is not run for them. */
const TOOL_METHODS: ReadonlySet<string> = new Set(['tools/call', 'tools/list']);

/**
 * Builds one request's server: capabilities, then the hook where it runs (what it registers held to the
 * access rules, feature-access.ts), then `populate` registers the tools this request needs (tool-set.ts), or
 * installs its `tools/list` (tool-list.ts); `cacheHints`, the server's (tool-list.ts says which). Last, the
 * protocol's edges are guarded on every handler it holds (edges.ts).
 * Called by the SDK's handler factory, once per exchange.
 */
export async function perRequestServer(
  config: MountConfig,
  surface: ServerSurface,
  state: RequestState,
  rc: McpRequestContext,
  populate: (server: McpServer) => void,
  cacheHints?: McpServerOptions['cacheHints'],
): Promise<McpServer> {
  const { name, version, instructions } = config.server;
  const hook = config.server.features && !(state.method !== undefined && TOOL_METHODS.has(state.method));
  // Stateless serving never sends a list-changed notification, so none is promised. Resource and prompt
  // capabilities are declared where the hook runs, from what it registered at construction; the SDK
  // would otherwise declare `listChanged: true` when the hook registers the first one.
  const capabilities: ServerCapabilities = { tools: { listChanged: false } };
  if (config.protocol.logging) capabilities.logging = {};
  if (hook && surface.resources.length > 0) capabilities.resources = { listChanged: false };
  if (hook && surface.prompts.length > 0) capabilities.prompts = { listChanged: false };
  const server = new McpServer(
    { name, version },
    {
      capabilities,
      instructions,
      ...(config.protocol.requestState && { requestState: config.protocol.requestState }),
      ...(cacheHints && { cacheHints }),
    },
  );
  if (hook) {
    const asked = {
      ...(state.method !== undefined && { method: state.method }),
      ...(state.authInfo && { authInfo: state.authInfo }),
      host: state.extras?.host ?? {},
    };
    const items = recordFeatures(server, config.observe, asked);
    config.server.features?.(server, {
      era: rc.era,
      method: state.method,
      authInfo: state.authInfo ?? rc.authInfo,
      request: rc.requestInfo,
      host: state.extras?.host,
      probe: false,
    });
    await restrictFeatures(items, config.access, asked, rc.requestInfo as Request);
  }
  populate(server);
  guardEdges(server, rc.era);
  return server;
}
