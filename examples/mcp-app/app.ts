/**
 * An MCP App beside its tool, from one mount: `order_status` names its view in `_meta.ui.resourceUri` (the
 * ext-apps form), and the `features` hook registers that `ui://` view with ext-apps's own
 * `registerAppResource`, which sets the MCP Apps MIME type (`text/html;profile=mcp-app`); its `_meta.ui`
 * carries the view's CSP and permissions. The startup probe checks that the view resolves
 * (`app-view-not-registered` otherwise). `server.ts` serves it for the Inspector.
 */
import { registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { z } from 'zod';
import { viewHtml } from './view.js';

export const VIEW_URI = 'ui://orders/status.html';

export const orderStatus = defineTool({
  name: 'order_status',
  title: 'Order status',
  description: 'The status of an order, shown in an interactive view where the host supports MCP Apps.',
  input: z.object({ orderId: z.string().describe('The order id, e.g. A-1001') }),
  output: z.object({ orderId: z.string(), status: z.enum(['placed', 'shipped', 'delivered']), eta: z.string() }),
  annotations: { readOnlyHint: true },
  _meta: { ui: { resourceUri: VIEW_URI } },
  handler: ({ input }) => ({ orderId: input.orderId, status: 'shipped' as const, eta: '2026-12-04' }),
});

export const tools = [orderStatus];

export const options: McpMountOptions = {
  server: {
    name: 'orders',
    features(server) {
      registerAppResource(
        server,
        'Order status view',
        VIEW_URI,
        {
          description: 'Shows the result of order_status.',
          _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } },
        },
        async (uri) => ({
          contents: [
            {
              uri: uri.href,
              mimeType: 'text/html;profile=mcp-app',
              text: viewHtml(),
              _meta: { ui: { csp: { connectDomains: [] }, permissions: {} } },
            },
          ],
        }),
      );
    },
  },
};
