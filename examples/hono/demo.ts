/**
 * `npm run demo`: starts the Hono example on a free port, then drives it with both official MCP clients.
 * For each client (the v2 client pinned to 2026-07-28, the 2025-era v1 client) it prints the protocol version
 * the connection negotiated and the advertised schema of `send_message`, makes three calls, then reads the
 * resource and gets the prompt the same mount serves beside the tools. The calls:
 *   (a) a proper message; (b) a media group whose `media` array arrives as a JSON string (repaired);
 *   (c) an invalid call, which must come back as an `isError` result naming the path.
 * Exits 0 only if all of that holds for both clients.
 */

import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type CallResult, connectors } from '../shared/clients.js';
import { createApp } from './app.js';

const server = serve({ fetch: createApp().fetch, port: 0, hostname: '127.0.0.1' });
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
console.log(`mcp-mount demo: Hono example serving ${url}\n`);

const textOf = (r: CallResult) => r.content.map((c) => c.text ?? '').join('\n');
let failures = 0;
const expect = (ok: boolean, what: string) => {
  console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${what}`);
  if (!ok) failures++;
};

try {
  const eras = ['2026-07-28', '2025-11-25'];
  for (const [i, connect] of connectors.entries()) {
    const client = await connect(url);
    console.log(`== ${client.label}`);
    expect(client.protocolVersion === eras[i], `negotiated ${eras[i]}`);
    const { tools } = await client.listTools();
    const sendMessage = tools.find((t) => t.name === 'send_message');
    console.log(`tools/list: ${tools.map((t) => t.name).join(', ')}`);
    console.log('send_message inputSchema (one flat object, no oneOf):');
    console.log(JSON.stringify(sendMessage?.inputSchema, null, 2).replace(/^/gm, '    '));
    expect(!!sendMessage && !JSON.stringify(sendMessage.inputSchema).match(/"(oneOf|anyOf)"/), 'schema is flat');

    const a = await client.callTool('send_message', { chatId: 'c-1', type: 'message', text: 'Hello from mcp-mount' });
    console.log(`(a) proper message -> ${textOf(a)}`);
    expect(!a.isError, '(a) succeeds');

    const media = JSON.stringify([{ url: 'https://example.com/1.png' }, { url: 'https://example.com/2.png' }]);
    const b = await client.callTool('send_message', { chatId: 'c-1', type: 'mediaGroup', media });
    console.log(`(b) media group, media sent as the string ${JSON.stringify(media)} -> ${textOf(b)}`);
    expect(!b.isError, '(b) succeeds after repair');

    const bad = { chatId: 'c-1', type: 'mediaGroup', media: [{ url: 42 }, { url: 'https://example.com/2.png' }] };
    const c = await client.callTool('send_message', bad);
    console.log(`(c) invalid call ${JSON.stringify(bad)} -> isError=${c.isError === true}: ${textOf(c)}`);
    expect(c.isError === true && textOf(c).includes('media[0].url'), '(c) is isError naming media[0].url');

    // The same mount serves a resource and a prompt beside the tools (the `server` option).
    const index = await client.readResource('notes://index');
    console.log(`resources/read notes://index -> ${JSON.stringify(index)}`);
    expect(index.startsWith('n-1 First note'), 'the resource is read');
    const prompt = await client.getPrompt('summarize_notes', { topic: 'cats' });
    console.log(`prompts/get summarize_notes { topic: "cats" } -> ${JSON.stringify(prompt)}`);
    expect(prompt === 'Summarize my notes about cats.', 'the prompt is filled in');
    await client.close();
    console.log('');
  }
} catch (error) {
  console.error('demo failed:', error);
  failures++;
} finally {
  server.close();
}
console.log(failures === 0 ? 'demo: all checks passed' : `demo: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
