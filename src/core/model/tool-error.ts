/** The one error whose message a client sees: everything else a handler throws is masked. */

const BRAND = Symbol.for('mcp-mount.ToolError');

/**
 * An error meant for the model: thrown by a handler (or by `extend.resolve`), its message is sent
 * verbatim as the call's `isError` text, and it is not reported to `onError` (it is an answer, not a
 * fault). Any other throw is masked as `Tool <name> failed (error id <id>)` unless `observe.exposeErrors` is set
 * (docs/decisions/0012-access-control.md).
 *
 * @example
 * handler: async ({ params }) => {
 *   const order = await db.orders.find(params.orderId);
 *   if (!order) throw new ToolError(`No order ${params.orderId}; list orders with list_orders`);
 *   return order;
 * }
 */
export class ToolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolError';
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a `ToolError`, also one from another copy of this package (checked by a global brand). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
