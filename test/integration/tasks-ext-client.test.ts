/**
 * An independent client settles tasks against the mount: `@modelcontextprotocol/ext-tasks` (0.2), the tasks
 * extension's own requester library, over real HTTP on a v2 SDK client, with an input_required round answered
 * by its elicitation callback.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { defineTool } from 'mcp-mount';
import { createMemoryTaskStore } from 'mcp-mount/tasks/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODERN } from '../../examples/shared/clients.js';
import { type Running, serveTools } from '../support/server.js';
import { rpc, TASKS } from '../support/tasks.js';

const Confirm = z.object({ confirm: z.boolean() });
const tools = [
  defineTool({
    name: 'archive',
    input: z.object({ folder: z.string() }),
    task: { support: 'required' },
    handler: async ({ input }, ctx) => {
      const answer = acceptedContent(ctx.mcp.mcpReq.inputResponses, 'confirm', Confirm);
      if (!answer) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Archive ${input.folder}?`, requestedSchema: Confirm }),
          },
        });
      }
      await new Promise((r) => setTimeout(r, 100));
      return answer.confirm ? `archived ${input.folder}` : `kept ${input.folder}`;
    },
  }),
];

let mount: Running;
beforeAll(async () => {
  mount = await serveTools(tools, { tasks: { store: createMemoryTaskStore(), anonymousOwner: () => 'ext-tasks' } });
});
afterAll(() => mount.close());

describe('the ext-tasks client', () => {
  it('calls a required task tool, answers its input round through its elicitation callback, and settles the result', async () => {
    const client = new Client(
      { name: 'ext-tasks-test', version: '1.0.0' },
      { ...MODERN, capabilities: { elicitation: {} } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(mount.url)));
    const elicited: unknown[] = [];
    const clientCapabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
    const session = createTaskSessionFromClient(client, {
      endpointId: 'mcp-mount-test',
      rawDispatch: async (request) => {
        const { method, params } = request as { method: string; params: Record<string, unknown> };
        const { _meta: _ignored, ...rest } = params ?? {};
        const answer = await rpc(mount.url, method, rest, { capabilities: { elicitation: {} } });
        return answer.message.error
          ? { kind: 'error', error: answer.message.error }
          : { kind: 'result', result: answer.message.result };
      },
      v2RequestFraming: {
        protocolVersion: '2026-07-28',
        clientInfo: { name: 'ext-tasks-test', version: '1.0.0' },
        clientCapabilities,
      },
      onInputRequest: createApplicationInputHandler({
        elicitation: (request) => {
          elicited.push(request.params);
          return { action: 'accept', content: { confirm: true } };
        },
        sampling: () => {
          throw new Error('no sampling');
        },
        roots: () => ({ roots: [] }),
      }),
    });
    try {
      const execution = await session.callTool('archive', { folder: 'reports' });
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { content: Array<{ text: string }> };
      expect(result.content[0]!.text).toBe('archived reports');
      expect(elicited).toEqual([expect.objectContaining({ message: 'Archive reports?' })]);
    } finally {
      await session.close();
      await client.close();
    }
  });
});
