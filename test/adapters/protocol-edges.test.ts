/**
 * Every protocol edge of docs/design/protocol-edges.md over real HTTP, on every Node adapter (Hono, Express,
 * the fetch adapter), in both revisions: raw POSTs as a client of each revision sends them (the 2025-11-25
 * headers, or the 2026-07-28 envelope and standard headers), each answered with the status and the JSON-RPC
 * code its revision names. Then the same edges through both official clients, where a client can send them.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDGE_TOOLS,
  EDGES,
  type Edge,
  edgeOptions,
  type Expected,
  httpRequest,
  messagesOf,
  REVISIONS,
  type Revision,
} from '../support/protocol-edges.js';
import { connectSdk, type SdkClient, sdkEras } from '../support/sdk-clients.js';

type Mount = NonNullable<Edge['mount']> | 'plain';

const ADAPTERS: Record<string, (mount: Mount) => http.Server> = {
  hono: (mount) => {
    const app = new Hono();
    app.all('/mcp', honoMcp(EDGE_TOOLS, edgeOptions(mount === 'plain' ? undefined : mount)));
    return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  },
  express: (mount) => {
    const app = express();
    app.use('/mcp', expressMcp(EDGE_TOOLS, edgeOptions(mount === 'plain' ? undefined : mount)));
    return app.listen(0, '127.0.0.1');
  },
  fetch: (mount) => {
    const worker = fetchMcp(EDGE_TOOLS, edgeOptions(mount === 'plain' ? undefined : mount));
    return serve({ fetch: (r) => worker.fetch(r), port: 0, hostname: '127.0.0.1' }) as http.Server;
  },
};

async function urlOf(server: http.Server): Promise<string> {
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

function isRefusal(expected: Expected): expected is Extract<Expected, { code: number }> {
  return 'code' in expected;
}

/** Whether the body of a refusal says what the rule wants; a served request's body holds only results. */
function expectAnswer(status: number, text: string, expected: Expected) {
  const messages = messagesOf(text);
  expect(status, text).toBe(expected.status);
  if (isRefusal(expected)) {
    expect(messages, text).toHaveLength(1);
    expect(messages[0].error?.code, text).toBe(expected.code);
    if (expected.data) expect(messages[0].error.data, text).toEqual(expected.data);
  } else {
    expect(
      messages.map((m) => Object.keys(m).includes('result')),
      text,
    ).toEqual(Array.from({ length: expected.results }, () => true));
  }
}

describe.each(Object.keys(ADAPTERS))('protocol edges on %s', (adapter) => {
  const servers: Partial<Record<Mount, http.Server>> = {};
  const urls: Partial<Record<Mount, string>> = {};
  beforeAll(async () => {
    for (const mount of ['plain', 'logging'] as const) {
      servers[mount] = ADAPTERS[adapter]!(mount);
      urls[mount] = await urlOf(servers[mount]!);
    }
  });
  afterAll(async () => {
    for (const server of Object.values(servers)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  describe.each(REVISIONS)('%s', (revision: Revision) => {
    const edges = EDGES.filter((edge) => edge.answers[revision] !== undefined);
    it.each(edges.map((edge) => [edge.does, edge] as const))('%s', async (_does, edge) => {
      const { headers, body } = httpRequest(revision, edge.sent);
      const response = await fetch(urls[edge.mount ?? 'plain']!, { method: 'POST', headers, body });
      expectAnswer(response.status, await response.text(), edge.answers[revision]!);
    });
  });

  describe.each(sdkEras.map((era) => [era]))('through the official %s client', (era) => {
    const revision: Revision = era === 'modern' ? '2026-07-28' : '2025-11-25';
    let client: SdkClient;
    let logging: SdkClient | undefined;
    beforeAll(async () => {
      client = await connectSdk(era, urls.plain!);
      if (era === 'legacy') logging = await connectSdk(era, urls.logging!);
    });
    afterAll(async () => {
      await client.close();
      await logging?.close();
    });

    /** The JSON-RPC code the client threw with, or `'answered'`. */
    const codeOf = async (call: () => Promise<unknown>) => {
      try {
        await call();
        return 'answered';
      } catch (error) {
        return (error as { code?: unknown }).code;
      }
    };

    it('refuses a cursor it never issued on every list', async () => {
      const cursor = { cursor: 'eyJwYWdlIjoyfQ' };
      expect(await codeOf(() => client.client.listTools(cursor))).toBe(-32602);
      expect(await codeOf(() => client.client.listPrompts(cursor))).toBe(-32602);
      expect(await codeOf(() => client.client.listResources(cursor))).toBe(-32602);
      expect(await codeOf(() => client.client.listResourceTemplates(cursor))).toBe(-32602);
      // And serves the first page, which is every item.
      expect((await client.client.listTools()).nextCursor).toBeUndefined();
    });

    it(`refuses to read a resource it does not have with ${revision === '2025-11-25' ? -32002 : -32602}`, async () => {
      const code = revision === '2025-11-25' ? -32002 : -32602;
      expect(await codeOf(() => client.client.readResource({ uri: 'docs://nothing' }))).toBe(code);
      expect(await codeOf(() => client.client.readResource({ uri: 'notes://missing' }))).toBe(code);
      expect((await client.client.readResource({ uri: 'notes://7' })).contents[0].text).toBe('note 7');
    });

    it('refuses an unknown prompt and an unknown tool with -32602', async () => {
      expect(await codeOf(() => client.client.getPrompt({ name: 'no_such_prompt' }))).toBe(-32602);
      expect(await codeOf(() => client.client.callTool({ name: 'no_such_tool', arguments: {} }))).toBe(-32602);
      expect(await codeOf(() => client.client.callTool({ name: 'hidden', arguments: {} }))).toBe(-32602);
    });

    it('sends a BigInt in a result as its decimal string, in the text and in structuredContent', async () => {
      const text = '{"total":"12345678901234567890","rows":[{"id":"1","name":"first"}]}';
      const plain = await client.callTool('count', {});
      expect(plain.isError).toBeFalsy();
      expect(plain.content).toEqual([{ type: 'text', text }]);
      const typed = await client.callTool('count_typed', {});
      expect(typed.isError).toBeFalsy();
      expect(typed.content).toEqual([{ type: 'text', text }]);
      expect(typed.structuredContent).toEqual(JSON.parse(text));
      const own = await client.callTool('count_result', {});
      expect(own.content).toEqual([{ type: 'text', text: 'counted' }]);
      expect(own.structuredContent).toEqual(JSON.parse(text));
    });

    it('sends a Date as JSON.stringify does (its toJSON, an ISO string), held to the output schema as sent', async () => {
      const dated = await client.callTool('dated', {});
      expect(dated.isError).toBeFalsy();
      expect(dated.structuredContent).toEqual({ at: '2025-01-02T03:04:05.000Z', id: '7' });
    });

    it('answers a result JSON cannot carry with an isError naming the path and what is there', async () => {
      const refused = async (tool: string) => {
        const result = await client.callTool(tool, {});
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        return result.content[0].text as string;
      };
      const failed = /^Tool \w+ failed \(error id [0-9a-f-]{36}\): its result cannot be sent as JSON: /;
      expect(await refused('ratio')).toMatch(new RegExp(`${failed.source}ratio is NaN \\(JSON has no such number\\)$`));
      expect(await refused('with_callback')).toMatch(
        new RegExp(`${failed.source}rows\\[0\\]\\.refresh is a function$`),
      );
      expect(await refused('cyclic')).toMatch(
        new RegExp(`${failed.source}children\\[0\\]\\.parent is a circular reference`),
      );
      expect(await refused('indexed')).toMatch(
        new RegExp(`${failed.source}index is a Map \\(JSON would send \\{\\}\\)$`),
      );
      // The path keeps its first and last levels around the count left out; the kind is always said.
      expect(await refused('deep')).toMatch(
        new RegExp(
          `${failed.source}child(\\.child)+…\\(\\d+ more levels\\)…(\\.child)+ is nested deeper than 512 levels of arrays and objects$`,
        ),
      );
    });

    it.runIf(era === 'legacy')('refuses logging/setLevel with a level that is not one (-32602)', async () => {
      expect(await codeOf(() => logging!.client.setLoggingLevel('loud'))).toBe(-32602);
      expect(await codeOf(() => logging!.client.setLoggingLevel('info'))).toBe('answered');
    });
  });
});
