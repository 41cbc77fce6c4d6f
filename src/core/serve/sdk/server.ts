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
import { featureGuard, restrictFeatures } from '../../access/features.js';
import type { AccessPolicy } from '../../access/settle.js';
import type { ServerSurface } from '../../model/features.js';
import type { Observer } from '../../observe/settle.js';
import type { ProjectionPolicy } from '../../prepare/settle.js';
import type { TasksPolicy } from '../../tasks/settle.js';
import { TASKS_EXTENSION } from '../../tasks/wire.js';
import type { ServerPolicy } from '../identity.js';
import type { ProtocolPolicy } from '../protocol.js';
import type { RequestState } from '../request-state.js';
import { guardEdges } from './edges.js';
import { interceptFeatures } from './features.js';

/** What the SDK's handler and each request's server are built with: each concern's part, once per mount. */
export interface SdkSetup {
  /** Identity and the `features` hook. */
  readonly server: ServerPolicy;
  readonly protocol: ProtocolPolicy;
  /** What the `features` hook registered at construction. */
  readonly surface: ServerSurface;
  /** The visibility and scope rules what the hook registers is held to. */
  readonly access: AccessPolicy;
  readonly observer: Observer;
  /** The SDK's own body limit, for the bodies it reads itself (`limits.maxRequestBodyBytes`). */
  readonly maxRequestBodyBytes: number;
  /** The default projection, for a request without a message of its own. */
  readonly projection: ProjectionPolicy;
  /** `tasks`; undefined when the mount runs none. */
  readonly tasks?: TasksPolicy;
}

/**
 * Methods only tools and their tasks answer: the hook (resources, prompts) is not run for them, so a task's
 * poll costs no hook run.
 */
const TOOL_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'tools/list',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/**
 * Builds one request's server: capabilities, then the hook where it runs (what it registers held to the
 * access rules, feature-access.ts), then `populate` registers the tools this request needs (tool-set.ts), or
 * installs its `tools/list` (tool-list.ts); `cacheHints`, the server's (tool-list.ts says which). Last, the
 * protocol's edges are guarded on every handler it holds (edges.ts).
 * Called by the SDK's handler factory, once per exchange.
 */
export async function perRequestServer(
  setup: SdkSetup,
  state: RequestState,
  rc: McpRequestContext,
  populate: (server: McpServer) => void,
  cacheHints?: McpServerOptions['cacheHints'],
): Promise<McpServer> {
  const { surface, protocol } = setup;
  const { implementation, instructions, features } = setup.server;
  const hook = features && !(state.method !== undefined && TOOL_METHODS.has(state.method));
  // Stateless serving never sends a list-changed notification, so none is promised. Resource and prompt
  // capabilities are declared where the hook runs, from what it registered at construction; the SDK
  // would otherwise declare `listChanged: true` when the hook registers the first one.
  const capabilities: ServerCapabilities = { tools: { listChanged: false } };
  if (protocol.logging) capabilities.logging = {};
  // The tasks extension exists on 2026-07-28 only (`server/discover`); 2025-era clients get plain calls.
  if (setup.tasks && rc.era === 'modern') capabilities.extensions = { [TASKS_EXTENSION]: {} };
  if (hook && surface.resources.length > 0) capabilities.resources = { listChanged: false };
  if (hook && surface.prompts.length > 0) capabilities.prompts = { listChanged: false };
  const server = new McpServer(
    { ...implementation },
    {
      capabilities,
      instructions,
      ...(protocol.requestState && { requestState: protocol.requestState }),
      ...(cacheHints && { cacheHints }),
    },
  );
  if (hook) {
    const asked = {
      ...(state.method !== undefined && { method: state.method }),
      ...(state.authInfo && { authInfo: state.authInfo }),
      host: state.extras?.host ?? {},
      ...(state.client && { client: state.client }),
    };
    const items = interceptFeatures(server, featureGuard(setup.observer, asked));
    features(server, {
      era: rc.era,
      method: state.method,
      authInfo: state.authInfo ?? rc.authInfo,
      request: rc.requestInfo,
      host: state.extras?.host,
      probe: false,
    });
    await restrictFeatures(items, setup.access, asked, rc.requestInfo as Request);
  }
  populate(server);
  guardEdges(server, rc.era);
  return server;
}
