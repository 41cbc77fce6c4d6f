/** What the store module itself decides: owner keys that never collide, and ids drawn from the CSPRNG. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ID_BYTES, newTaskId, taskOwner } from '../../../src/core/tasks/store.js';

afterEach(() => vi.restoreAllMocks());

describe('taskOwner', () => {
  it('maps different identities to different keys: each part in its place, missing apart from empty', () => {
    const identities = [
      { subject: 'a' },
      { clientId: 'a' },
      { issuer: 'a' },
      { anonymous: 'a' },
      { subject: '' },
      { subject: 'a', clientId: 'b' },
      { subject: 'b', clientId: 'a' },
      { issuer: 'https://one', subject: 'a' },
      { issuer: 'https://two', subject: 'a' },
      { subject: '["caller",null,null,"a"]' },
      { anonymous: '["caller",null,null,"a"]' },
    ];
    const keys = identities.map(taskOwner);
    expect(new Set(keys).size).toBe(identities.length);
    expect(taskOwner({ subject: 'a', clientId: 'b' })).toBe(taskOwner({ clientId: 'b', subject: 'a' }));
  });

  it('refuses an identity with no part, and an empty anonymous key', () => {
    expect(() => taskOwner({})).toThrow(TypeError);
    expect(() => taskOwner({ anonymous: '' })).toThrow(/non-empty key/);
  });
});

describe('newTaskId', () => {
  it(`draws ${ID_BYTES} bytes from crypto.getRandomValues for each id`, () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const id = newTaskId();
    expect(spy).toHaveBeenCalledTimes(1);
    const drawn = spy.mock.calls[0]![0] as Uint8Array;
    expect(drawn.byteLength).toBe(16);
    expect(Buffer.from(id, 'base64url')).toEqual(Buffer.from(drawn));
  });
});
