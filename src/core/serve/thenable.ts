/**
 * What `await` would wait for: a promise, or any object or function with a `then` method. Asked instead of
 * `instanceof Promise` wherever a value may come from the runtime or a user's code: a promise made in another
 * realm (the Edge runtime's sandbox hands out its host's, e.g. from `request.arrayBuffer()`) is no instance of
 * this realm's `Promise`, and would be taken for the value it promises.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
