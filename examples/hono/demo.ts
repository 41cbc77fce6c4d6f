/**
 * `npm run demo`: starts the Hono example on a free port, mounted with `projection: 'auto'`
 * (`perClientOptions`), then drives it with both official MCP clients.
 * For each client (the v2 client pinned to 2026-07-28, the 2025-era v1 client) it prints the protocol version
 * the connection negotiated and the advertised schema of `send_message`, makes three calls, then reads the
 * resource and gets the prompt the same mount serves beside the tools. The calls:
 *   (a) a proper message; (b) a media group whose `media` array arrives as a JSON string (repaired);
 *   (c) an invalid call, which must come back as an `isError` result naming the path.
 * Then the same two clients identify as Cursor (the v2 client by its clientInfo name, the v1 client by its
 * User-Agent): each is listed the `cursor` projection of `send_message`, printed beside the one the first
 * clients got, and a proper call through it succeeds. Every listed document must equal the startup probe's
 * document for that projection. Exits 0 only if all of that holds.
 */

import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type ProjectionName, validateMcpSchemas } from 'mcp-mount';
import { type CallResult, connectors, connectV1, connectV2, type McpClient } from '../shared/clients.js';
import { perClientOptions, tools } from '../shared/tools.js';
import { createApp } from './app.js';

// The mount's own options, default policy ('throw') included: every projection it serves passed the probe.
const demoOptions = perClientOptions;
const probe = validateMcpSchemas(tools, demoOptions);
console.log(
  `mcp-mount demo: startup probe, projection 'auto' among ${Object.keys(probe.projections).join(', ')} (default ${probe.projection})`,
);
for (const [name, p] of Object.entries(probe.projections)) {
  const count = (severity: string) => p!.issues.filter((i) => i.severity === severity && i.projection === name).length;
  console.log(`  ${name.padEnd(14)} ${count('error')} errors, ${count('warning')} warnings, ${count('info')} narrowed`);
}
console.log('  details: npx tsx src/cli/index.ts check examples/shared/tools.ts --projection auto --all-projections');

const server = serve({ fetch: createApp(demoOptions).fetch, port: 0, hostname: '127.0.0.1' });
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
console.log(`\nmcp-mount demo: Hono example serving ${url}\n`);

/** The startup probe's `send_message` document for a projection: what `tools/list` must send its clients. */
const probeDocument = (projection: ProjectionName) =>
  probe.projections[projection]?.tools.find((t) => t.name === 'send_message')?.inputSchema;
const sameAsProbe = (listed: unknown, projection: ProjectionName) =>
  listed !== undefined && JSON.stringify(listed) === JSON.stringify(probeDocument(projection));
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
    console.log('send_message inputSchema, projection flat (one flat object, no oneOf):');
    console.log(JSON.stringify(sendMessage?.inputSchema, null, 2).replace(/^/gm, '    '));
    expect(!!sendMessage && !JSON.stringify(sendMessage.inputSchema).match(/"(oneOf|anyOf)"/), 'schema is flat');
    expect(sameAsProbe(sendMessage?.inputSchema, 'flat'), "it is the probe's flat document");

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

  // The same mount, the same tools: clients that identify as Cursor are served the `cursor` projection.
  const asCursor: Array<() => Promise<McpClient>> = [
    () => connectV2(url, { name: 'cursor-vscode' }),
    () => connectV1(url, { userAgent: 'Cursor/1.7.44 (darwin arm64)' }),
  ];
  for (const connect of asCursor) {
    const client = await connect();
    console.log(`== ${client.label}`);
    const sendMessage = (await client.listTools()).tools.find((t) => t.name === 'send_message');
    const flat = JSON.stringify(probeDocument('flat'));
    console.log(
      `send_message inputSchema, projection cursor (${JSON.stringify(sendMessage?.inputSchema) === flat ? 'the same as flat for this tool' : 'rewritten from flat for Cursor'}):`,
    );
    console.log(JSON.stringify(sendMessage?.inputSchema, null, 2).replace(/^/gm, '    '));
    expect(sameAsProbe(sendMessage?.inputSchema, 'cursor'), "it is the probe's cursor document");
    const a = await client.callTool('send_message', { chatId: 'c-2', type: 'message', text: 'Hello from Cursor' });
    console.log(`(a) proper message -> ${textOf(a)}`);
    expect(!a.isError, '(a) succeeds');
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
