/**
 * Raw JSON-RPC over real HTTP for the tasks extension: a 2026-07-28 request with the headers a client sends
 * (`Mcp-Method`, and `Mcp-Name` naming the tool or the task), declaring `io.modelcontextprotocol/tasks` in its
 * `_meta` or not; a 2025-era request as a plain POST. Answers are the JSON-RPC message, from JSON or SSE.
 */
export const TASKS = 'io.modelcontextprotocol/tasks';

export interface Send {
  /** Declare the extension in `_meta` (2026-07-28 only). Default true. */
  declare?: boolean;
  /** Without `declare`: this value as the client capabilities' `extensions` (left out when undefined). */
  extensions?: unknown;
  /** Other client capabilities to declare beside the extension (`{ elicitation: {} }`). */
  capabilities?: Record<string, unknown>;
  /** `modern` (2026-07-28, default) or `legacy` (2025-11-25, no envelope). */
  era?: 'modern' | 'legacy';
  headers?: Record<string, string>;
  id?: number | string;
}

export interface Answer {
  status: number;
  /** The body as sent. */
  text: string;
  message: any;
}

export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  send: Send = {},
): Promise<Answer> {
  const { declare = true, era = 'modern', id = 1 } = send;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...send.headers,
  };
  let body = params;
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = method;
    const name = params.taskId ?? params.name;
    if (typeof name === 'string') headers['mcp-name'] = name;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {
        ...send.capabilities,
        ...(declare
          ? { extensions: { [TASKS]: {} } }
          : send.extensions === undefined
            ? {}
            : { extensions: send.extensions }),
      },
      'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1.0.0' },
    };
    body = { ...params, _meta: meta };
  } else if (headers['mcp-protocol-version'] === undefined) {
    headers['mcp-protocol-version'] = '2025-11-25';
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, ...send.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: body }),
  });
  const text = await response.text();
  const data =
    text.startsWith('event:') || text.startsWith('id:') || text.startsWith(':')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .filter((l) => l !== '')
          .at(-1)!
      : text;
  return { status: response.status, text: data, message: JSON.parse(data) };
}

/** `tools/call`, and its result (or throws naming the error). */
export function call(url: string, name: string, args: Record<string, unknown> = {}, send?: Send): Promise<Answer> {
  return rpc(url, 'tools/call', { name, arguments: args }, send);
}

/** Polls `tasks/get` until the task is terminal (or `until` holds), at most `ms`. */
export async function pollTask(
  url: string,
  taskId: string,
  send: Send = {},
  until: (task: any) => boolean = (t) => ['completed', 'failed', 'cancelled'].includes(t.status),
  ms = 10_000,
): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { message } = await rpc(url, 'tasks/get', { taskId }, send);
    if (message.error) throw new Error(`tasks/get: ${JSON.stringify(message.error)}`);
    if (until(message.result)) return message.result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${message.result.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
