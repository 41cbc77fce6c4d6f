/**
 * Accessors for objects made per request (a handler's context, the direct path's `ctx.mcp`): an own,
 * enumerable accessor, so that a spread of the object still copies its value, defined from one descriptor
 * shared by every object that carries it.
 *
 * Not an accessor written in an object literal: that is a new function each time the literal is evaluated,
 * and V8 cannot share the hidden class of an accessor property between two accessor functions, so each
 * object got a hidden class of its own, held in the old generation. Through the accessor's closure it kept
 * the whole request (its message, closures, the request itself) alive through every young collection until
 * a full one (ADR 0039, fifth round; test/unit/layout/literal-accessors.test.ts keeps them out of `src/`).
 */

/**
 * The descriptor of an own enumerable, configurable accessor that answers `read(object)`. Made once per
 * accessor, at module load; `read` reads the object's own state (a private field through a static method).
 * @example `Object.defineProperty(this, 'signal', SIGNAL)` with `const SIGNAL = sharedAccessor(Context.signalOf)`
 */
export function sharedAccessor<T>(read: (object: T) => unknown): PropertyDescriptor {
  return {
    get(this: T) {
      return read(this);
    },
    enumerable: true,
    configurable: true,
  };
}
