/**
 * Every answer of the direct path hands the runtime a headers object of its own that it may change:
 * @hono/node-server 1.x keeps a Response's init headers and adds `Content-Length` to them as it writes the
 * answer, which a shared frozen object made throw for every call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { legacyAnswer, modernAnswer } from '../../../src/core/serve/direct/encode.js';

const Real = globalThis.Response;
afterEach(() => {
  globalThis.Response = Real;
});

describe('the direct path answers', () => {
  it('each carry init headers of their own that can be added to, in both eras and both framings', () => {
    const inits: unknown[] = [];
    globalThis.Response = class extends Real {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        inits.push(init?.headers);
        super(body, init);
      }
    } as typeof Response;
    const result = { content: [{ type: 'text' as const, text: 'ok' }] };
    for (let i = 0; i < 2; i++) {
      legacyAnswer(result, 1, false);
      legacyAnswer(result, 1, true);
      modernAnswer(result, 1, { name: 'notes', version: '1.0.0' });
    }
    expect(inits).toHaveLength(6);
    for (const headers of inits) {
      expect(Object.isExtensible(headers)).toBe(true);
      (headers as Record<string, unknown>)['Content-Length'] = 2;
    }
    expect(new Set(inits).size).toBe(6);
  });
});
