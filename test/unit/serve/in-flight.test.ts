/**
 * The registry a `notifications/cancelled` reaches calls through (in-flight.ts, ADR 0038): only the caller's own
 * call with that exact id, only when one call holds it, and nothing of a call is kept once it has ended.
 */
import { describe, expect, it } from 'vitest';
import { CANCELLED, inFlightCalls } from '../../../src/core/serve/in-flight.js';
import { settleProtocol } from '../../../src/core/serve/protocol.js';

const ada = { token: 't', clientId: 'app', scopes: [], extra: { sub: 'ada' } };
const grace = { token: 't', clientId: 'app', scopes: [], extra: { sub: 'grace' } };
const cancelOf = (requestId: unknown) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });

describe('calls in flight', () => {
  it('a cancel from the call’s own caller aborts the handler’s signal, then the answer’s, both with the cancel reason', () => {
    const calls = inFlightCalls();
    const tracked = calls.track({ requestId: 7 }, ada)!;
    const order: string[] = [];
    tracked.cancel.handler.addEventListener('abort', () => order.push('handler'));
    tracked.cancel.answer.addEventListener('abort', () => order.push('answer'));
    expect(calls.cancel(cancelOf(7), ada)).toBe(true);
    expect(order).toEqual(['handler', 'answer']);
    expect(tracked.cancel.handler.reason).toBe(CANCELLED);
    expect(tracked.cancel.answer.reason).toBe(CANCELLED);
  });

  it('a cancel from another caller, an anonymous one, or for "7" when 7 runs, reaches nothing', () => {
    const calls = inFlightCalls();
    const tracked = calls.track({ requestId: 7 }, ada)!;
    expect(calls.cancel(cancelOf(7), grace)).toBe(false);
    expect(calls.cancel(cancelOf(7), undefined)).toBe(false);
    expect(calls.cancel(cancelOf('7'), ada)).toBe(false);
    expect(calls.cancel({ ...cancelOf(7), id: 1 }, ada)).toBe(false);
    expect(tracked.cancel.handler.aborted).toBe(false);
  });

  it('a cancel from another user of the same OAuth client, whose tokens carry no subject, reaches nothing', () => {
    const calls = inFlightCalls();
    const alice = { token: 'alice-token', clientId: 'shared-app', scopes: [] };
    const mallory = { token: 'mallory-token', clientId: 'shared-app', scopes: [] };
    const tracked = calls.track({ requestId: 1 }, alice)!;
    expect(calls.cancel(cancelOf(1), mallory)).toBe(false);
    expect(tracked.cancel.handler.aborted).toBe(false);
    expect(calls.cancel(cancelOf(1), alice)).toBe(true);
  });

  it('a call whose credentials carry no token is not tracked: nothing tells its callers apart', () => {
    expect(inFlightCalls().track({ requestId: 1 }, { token: '', clientId: 'app', scopes: [] })).toBeUndefined();
  });

  it('an anonymous call, or a token with no issuer, client id or subject, is not tracked', () => {
    const calls = inFlightCalls();
    expect(calls.track({ requestId: 1 }, undefined)).toBeUndefined();
    expect(calls.track({ requestId: 1 }, { token: 't', clientId: '', scopes: [] })).toBeUndefined();
  });

  it('an id one caller has in flight twice is cancelled by neither', () => {
    const calls = inFlightCalls();
    const one = calls.track({ requestId: 1 }, ada)!;
    const two = calls.track({ requestId: 1 }, ada)!;
    expect(calls.cancel(cancelOf(1), ada)).toBe(false);
    expect(one.cancel.handler.aborted || two.cancel.handler.aborted).toBe(false);
    two.end();
    expect(calls.cancel(cancelOf(1), ada)).toBe(true);
    expect(one.cancel.handler.aborted).toBe(true);
  });

  it('an entry is removed when its call ends, so a later cancel reaches nothing', () => {
    const calls = inFlightCalls();
    for (let id = 0; id < 1000; id++) calls.track({ requestId: id }, ada)!.end();
    for (let id = 0; id < 1000; id++) expect(calls.cancel(cancelOf(id), ada)).toBe(false);
    const tracked = calls.track({ requestId: 5 }, ada)!;
    tracked.end();
    tracked.end();
    expect(calls.cancel(cancelOf(5), ada)).toBe(false);
    expect(tracked.cancel.handler.aborted).toBe(false);
  });
});

describe('protocol.keepAliveMs', () => {
  it('defaults to the SDK’s 15000 ms, takes 0 for none, and refuses anything but an integer a timer takes', () => {
    expect(settleProtocol({}).keepAliveMs).toBe(15_000);
    expect(settleProtocol({ keepAliveMs: 0 }).keepAliveMs).toBe(0);
    expect(settleProtocol({ keepAliveMs: 5000 }).keepAliveMs).toBe(5000);
    for (const bad of [-1, 1.5, 2 ** 31, '15000', Number.NaN]) {
      expect(() => settleProtocol({ keepAliveMs: bad as never })).toThrow(
        /protocol\.keepAliveMs must be an integer from 0 \(none\) to 2147483647/,
      );
    }
  });
});
