/**
 * The client's address as the runtime's connection gives it, for adapters to hand on as
 * `FetchExtras.remoteAddress`. Each runtime passes its connection beside the `Request` in its own shape: Node
 * (through @hono/node-server) `{ incoming }` with the socket, Bun its server (`requestIP`), Deno its serve
 * handler info (`remoteAddr`). Workers and Next.js route handlers pass none: there the address is a header
 * the platform sets (`observe.remoteAddressHeader`).
 */

/**
 * The peer address of the connection `request` came in on, read from the runtime's second `fetch` argument
 * (`env`), or from a Node `IncomingMessage`; undefined when the runtime says none. Never throws.
 * @example connectionAddress(c.env, c.req.raw) // '203.0.113.7' under @hono/node-server, Bun or Deno
 */
export function connectionAddress(env: unknown, request?: Request): string | undefined {
  if (typeof env !== 'object' || env === null) return undefined;
  try {
    const node = env as { socket?: { remoteAddress?: unknown }; incoming?: { socket?: { remoteAddress?: unknown } } };
    const socket = node.incoming?.socket ?? node.socket;
    if (socket) return nonEmpty(socket.remoteAddress);
    const bun = env as { requestIP?: (request: Request) => { address?: unknown } | null };
    if (typeof bun.requestIP === 'function' && request) return nonEmpty(bun.requestIP(request)?.address);
    return nonEmpty((env as { remoteAddr?: { hostname?: unknown } }).remoteAddr?.hostname);
  } catch {
    // A getter of someone else's object: no address rather than a failed request.
    return undefined;
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
