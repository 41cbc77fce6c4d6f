/**
 * An MCP App view from one mount (examples/mcp-app), over real HTTP with both official clients: the tool lists
 * its `ui://` view, the view reads back with the MCP Apps MIME type and its `_meta.ui`, and ext-apps's
 * host-side helpers and schemas accept both (a browser host is out of reach here: the view's module is parsed
 * by esbuild instead of run). The probe refuses a view the mount does not serve.
 */
import {
  McpUiResourceMetaSchema,
  McpUiSandboxResourceReadyNotificationSchema,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps';
import { buildAllowAttribute, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { transformSync } from 'esbuild';
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { options, tools, VIEW_URI } from '../../examples/mcp-app/app.js';
import { connectSdk, sdkEras } from '../support/sdk-clients.js';
import { type Running, serveTools } from '../support/server.js';

let running: Running;
beforeAll(async () => {
  running = await serveTools(tools, options);
});
afterAll(() => running.close());

describe.each(sdkEras)('an MCP App view (%s client)', (era) => {
  it('is named by its tool, reads back as an MCP App, and is what ext-apps hosts accept', async () => {
    const client = await connectSdk(era, running.url);
    try {
      const [tool] = (await client.client.listTools()).tools;
      expect(getToolUiResourceUri(tool)).toBe(VIEW_URI);
      const listed = (await client.client.listResources()).resources.find((r: { uri: string }) => r.uri === VIEW_URI);
      expect(listed).toMatchObject({ name: 'Order status view', mimeType: RESOURCE_MIME_TYPE });
      const [content] = (await client.client.readResource({ uri: VIEW_URI })).contents;
      expect(content.mimeType).toBe('text/html;profile=mcp-app');
      const meta = McpUiResourceMetaSchema.parse(content._meta.ui);
      expect(buildAllowAttribute(meta.permissions)).toBe('');
      const ready = McpUiSandboxResourceReadyNotificationSchema.safeParse({
        method: 'ui/notifications/sandbox-resource-ready',
        params: { html: content.text, csp: meta.csp, permissions: meta.permissions },
      });
      expect(ready.success).toBe(true);
      const script = /<script type="module">([\s\S]*)<\/script>/.exec(content.text)?.[1] ?? '';
      expect(() => transformSync(script, { format: 'esm', loader: 'js' })).not.toThrow();
      expect(script).toContain('new App(');
      const result = await client.callTool('order_status', { orderId: 'A-1001' });
      expect(result.structuredContent).toEqual({ orderId: 'A-1001', status: 'shipped', eta: '2026-12-04' });
    } finally {
      await client.close();
    }
  });
});

describe('the probe on MCP Apps views', () => {
  const viewing = (uri: string) =>
    defineTool({ name: 'viewing', _meta: { ui: { resourceUri: uri } }, handler: () => 'x' });
  const codes = (report: ReturnType<typeof validateMcpSchemas>) =>
    report.issues.map((i) => `${i.severity} ${i.path} ${i.code}`);

  it('passes the example, whose view is registered with registerAppResource', () => {
    expect(validateMcpSchemas(tools, options).issues).toEqual([]);
  });

  it('refuses a view the mount does not serve, and warns of one registered without the MCP Apps type', () => {
    expect(codes(validateMcpSchemas([viewing('ui://orders/other.html')], options))).toEqual([
      'error /_meta/ui/resourceUri app-view-not-registered',
    ]);
    expect(codes(validateMcpSchemas([viewing('https://example.com/view.html')], options))).toEqual([
      'error /_meta/ui/resourceUri app-view-not-registered',
    ]);
    const plain = {
      server: {
        features: (server: any) =>
          server.registerResource('v', 'ui://plain/view.html', { mimeType: 'text/html' }, () => ({ contents: [] })),
      },
    };
    expect(codes(validateMcpSchemas([viewing('ui://plain/view.html')], plain))).toEqual([
      'warning /_meta/ui/resourceUri app-view-mime-type',
    ]);
    const legacy = defineTool({ name: 'legacy', _meta: { 'ui/resourceUri': 'ui://x/y.html' }, handler: () => 'x' });
    expect(codes(validateMcpSchemas([legacy]))).toEqual(['error /_meta/ui~1resourceUri app-view-not-registered']);
  });
});
