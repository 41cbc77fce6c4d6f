/**
 * The official clients themselves (not the narrow `McpClient` view), for tests that use more of the
 * protocol than tools: resources, prompts, completions, elicitation answers, progress and log messages.
 * `modern` is the v2 client pinned to 2026-07-28, `legacy` the 2025-era v1 client.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MODERN } from '../../examples/shared/clients.js';

export type SdkEra = 'modern' | 'legacy';
export const sdkEras: readonly SdkEra[] = ['modern', 'legacy'];

export interface SdkClient {
  era: SdkEra;
  protocolVersion: string | undefined;
  /** The client itself: v2 `Client` or v1 `Client`, whose request methods take the same params. */
  client: any;
  /** `tools/call` with progress reported to `onprogress`, and `_meta` added to the request's own. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (p: unknown) => void,
    meta?: Record<string, unknown>,
  ): Promise<any>;
  /** Every `notifications/message` the client received. */
  logs: unknown[];
  close(): Promise<void>;
}

/**
 * Connects one client. `elicit` answers `elicitation/create` (the client then declares the elicitation
 * capability): in 2026-07-28 the client fulfils an `input_required` result with it and retries the call.
 */
export async function connectSdk(
  era: SdkEra,
  url: string,
  elicit?: (params: any) => Record<string, unknown>,
): Promise<SdkClient> {
  const logs: unknown[] = [];
  const capabilities = elicit ? { elicitation: {} } : {};
  if (era === 'modern') {
    const client = new ClientV2({ name: 'mcp-mount-tests', version: '1.0.0' }, { ...MODERN, capabilities });
    if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params) as never);
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params);
    });
    await client.connect(new TransportV2(new URL(url)));
    return {
      era,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      client,
      callTool: (name, args, onprogress, meta) =>
        client.callTool(
          { name, arguments: args, ...(meta && { _meta: meta }) },
          onprogress ? { onprogress } : undefined,
        ),
      logs,
      close: () => client.close(),
    };
  }
  const client = new ClientV1({ name: 'mcp-mount-tests', version: '1.0.0' }, { capabilities });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params) as never);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
  });
  const transport = new TransportV1(new URL(url));
  await client.connect(transport);
  return {
    era,
    protocolVersion: transport.protocolVersion,
    client,
    callTool: (name, args, onprogress, meta) =>
      client.callTool(
        { name, arguments: args, ...(meta && { _meta: meta }) },
        undefined,
        onprogress ? { onprogress } : undefined,
      ),
    logs,
    close: () => client.close(),
  };
}
