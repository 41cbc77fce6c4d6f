/**
 * MCP Apps views: a tool that names a `ui://` view in its `_meta` (the ext-apps form, `_meta.ui.resourceUri`,
 * or the older `_meta['ui/resourceUri']`) must find it registered on the same mount, as a static resource the
 * `features` hook registers (ext-apps's `registerAppResource`), or a host that fetches the view gets
 * "resource not found" where the app should be. Checked once at construction. Never throws.
 */
import { isPlainObject } from '../json-schema/types.js';
import type { SchemaIssue } from './issue.js';

/** The MIME type of an MCP App view (ext-apps's `RESOURCE_MIME_TYPE`). */
const APP_VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** The static resources the `features` hook registered at construction, by URI, with their MIME types. */
export interface RegisteredResources {
  resourceUris: ReadonlyMap<string, { mimeType?: string }>;
}

/** The `ui://` view each tool names, checked against what the hook registered. */
export function checkAppViews(
  tools: readonly { name: string; _meta?: Readonly<Record<string, unknown>> }[],
  surface: RegisteredResources,
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const tool of tools) {
    const view = viewOf(tool._meta);
    if (view === undefined) continue;
    const { uri, at } = view;
    const issue = (code: SchemaIssue['code'], message: string, severity: SchemaIssue['severity']) =>
      issues.push({
        tool: tool.name,
        path: at,
        code,
        message: `tool "${tool.name}": ${message}`,
        severity,
        side: 'tool',
      });
    if (!uri.startsWith('ui://')) {
      issue('app-view-not-registered', `its view ${JSON.stringify(uri)} is not a ui:// URI`, 'error');
      continue;
    }
    const registered = surface.resourceUris.get(uri);
    if (!registered) {
      issue(
        'app-view-not-registered',
        `its view ${uri} is not a resource of this mount; register it in the features hook with ext-apps's registerAppResource(server, name, '${uri}', config, read)`,
        'error',
      );
    } else if (registered.mimeType?.replaceAll(' ', '') !== APP_VIEW_MIME_TYPE) {
      issue(
        'app-view-mime-type',
        `its view ${uri} is registered as ${JSON.stringify(registered.mimeType ?? null)}, not ${APP_VIEW_MIME_TYPE}: hosts render only that type; register it with ext-apps's registerAppResource, which sets it`,
        'warning',
      );
    }
  }
  return issues;
}

function viewOf(meta: Readonly<Record<string, unknown>> | undefined): { uri: string; at: string } | undefined {
  if (!isPlainObject(meta)) return undefined;
  const ui = meta.ui;
  if (isPlainObject(ui) && typeof ui.resourceUri === 'string')
    return { uri: ui.resourceUri, at: '/_meta/ui/resourceUri' };
  const legacy = meta['ui/resourceUri'];
  return typeof legacy === 'string' ? { uri: legacy, at: '/_meta/ui~1resourceUri' } : undefined;
}
