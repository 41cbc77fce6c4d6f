/**
 * The troubleshooting page's status table says what the server answers: its `Accept` rows are checked
 * against real answers (the page once documented `Accept: application/json` alone as 406, where the server
 * answers 200 JSON).
 */
import { readFileSync } from 'node:fs';
import { defineTool } from 'mcp-mount';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rpc } from '../adapters/support/tools.js';
import { type Running, serveTools } from '../support/server.js';

const page = readFileSync(new URL('../../docs/guide/troubleshooting.md', import.meta.url), 'utf8');
/** The cells of the status table's row for `status`. */
const row = (status: number) => {
  const line = page.split('\n').find((l) => l.startsWith(`| ${status} |`));
  return line?.split(' | ').map((cell) => cell.replaceAll('`', '').replace(/^\| ?/, '').trim());
};

let running: Running;
beforeAll(async () => {
  running = await serveTools([defineTool({ name: 'ping', input: z.object({}), handler: () => 'pong' })]);
});
afterAll(() => running.close());

const post = (accept: string | undefined) =>
  fetch(running.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
      ...(accept !== undefined && { accept }),
    },
    body: rpc('tools/list'),
  });

describe("the troubleshooting page's Accept rows", () => {
  it('406 is what a request that admits neither JSON nor an event stream gets, with the message the page quotes', async () => {
    const [, said, why] = row(406)!;
    expect(why).toContain('text/html');
    const refused = await post('text/html');
    expect(refused.status).toBe(406);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(said);
  });

  it('a request that admits JSON alone, anything, or sends no Accept is answered in JSON, as the fix says', async () => {
    const [, , , fix] = row(406)!;
    expect(fix).toMatch(/accept application\/json \(or \*\/\*, or send no Accept\)/);
    for (const accept of ['application/json', '*/*', undefined]) {
      const answered = await post(accept);
      expect([accept, answered.status, answered.headers.get('content-type')]).toEqual([
        accept,
        200,
        expect.stringMatching(/^application\/json/),
      ]);
      expect(((await answered.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(1);
    }
  });
});
