/**
 * An abort signal made when first read. Most handlers never read `ctx.signal`; a call that creates an
 * `AbortController` anyway pays for it (on Node 20, with its transfer hooks, and on the Node bridge the
 * request's own `signal` is built on first read too) and for a listener on the client's signal: a few
 * percent of a call's CPU. Once read, the signal carries any abort recorded before and follows `parent`,
 * read then.
 */
export class LazySignal {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #parent: (() => AbortSignal | undefined) | undefined;
  #unfollow: (() => void) | undefined;

  /** `parent`: read on the first read of `signal`, never before; this signal aborts when it does. */
  constructor(parent?: () => AbortSignal | undefined) {
    this.#parent = parent;
  }

  /** The signal: made now if it was not, aborted with the first reason given, if any. */
  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = new AbortController();
    this.#controller = controller;
    if (this.#aborted) {
      controller.abort(this.#reason);
      return controller.signal;
    }
    const parent = this.#parent?.();
    if (parent?.aborted) this.abort(parent.reason);
    else if (parent) {
      const follow = () => this.abort(parent.reason);
      parent.addEventListener('abort', follow, { once: true });
      this.#unfollow = () => parent.removeEventListener('abort', follow);
    }
    return controller.signal;
  }

  /** Aborts with `reason` (the first reason wins), and stops following the parent. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#unfollow?.();
    this.#unfollow = undefined;
    this.#controller?.abort(reason);
  }

  /** Stops following the parent (now, or on a later first read) without aborting. */
  release(): void {
    this.#parent = undefined;
    this.#unfollow?.();
    this.#unfollow = undefined;
  }
}
