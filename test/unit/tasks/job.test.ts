/**
 * What the store keeps of a call handed to a queue (`queuedCall`) and what the consumer reads back
 * (`readQueuedCall`): the arguments as sent, the caller's token info without its token, and nothing JSON cannot
 * carry.
 */
import { describe, expect, it } from 'vitest';
import { queuedCall, readQueuedCall } from '../../../src/core/tasks/job.js';

describe('a queued call in the store', () => {
  it("keeps the tool, the arguments and the caller's token info, never the token itself", () => {
    const stored = queuedCall(
      'build',
      { target: 'docs', n: 2 },
      {
        token: 'secret-bearer',
        clientId: 'app',
        scopes: ['build'],
        expiresAt: 1_900_000_000,
        resource: new URL('https://mcp.example.com/mcp'),
        extra: { sub: 'ada', iss: 'https://auth.example.com' },
      },
    );
    expect(JSON.stringify(stored)).not.toContain('secret-bearer');
    const read = readQueuedCall(JSON.parse(JSON.stringify(stored)));
    expect(read).toEqual({
      tool: 'build',
      arguments: { target: 'docs', n: 2 },
      authInfo: {
        token: '',
        clientId: 'app',
        scopes: ['build'],
        expiresAt: 1_900_000_000,
        resource: new URL('https://mcp.example.com/mcp'),
        extra: { sub: 'ada', iss: 'https://auth.example.com' },
      },
    });
  });

  it('leaves out an extra JSON cannot carry, and reads an anonymous call without authInfo', () => {
    const stored = queuedCall('build', {}, { token: 't', clientId: 'app', scopes: [], extra: { big: 1n } });
    expect(stored).toEqual({ tool: 'build', arguments: {}, authInfo: { clientId: 'app', scopes: [] } });
    expect(readQueuedCall(queuedCall('build', { a: 1 }, undefined))).toEqual({ tool: 'build', arguments: { a: 1 } });
  });

  it('reads what the default run stores ({ tool } alone) and anything else as no queued call', () => {
    expect(readQueuedCall({ tool: 'build' })).toBeUndefined();
    expect(readQueuedCall(null)).toBeUndefined();
    expect(readQueuedCall(['build'])).toBeUndefined();
  });
});
