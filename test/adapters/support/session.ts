/**
 * The scripted session every adapter is driven through (the cross-adapter matrix and each runtime's own
 * test): tools/list; a flattened-union call; a repaired double-serialised argument; an invalid call; an
 * unknown tool; the resource and the prompt the same mount serves beside the tools. Returns what came back,
 * normalised only as far as needed to compare adapters.
 */
import { expect } from 'vitest';
import { connect, type Era, type FetchLike } from './clients.js';

export interface Outcome {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  /** A JSON-RPC error the client threw instead of a result. */
  error?: { code: unknown; message: string };
}

export interface Transcript {
  era: Era;
  /** The raw `tools/list` response body, byte for byte. */
  listBody: string;
  toolNames: string[];
  outcomes: Record<'unionObject' | 'unionArray' | 'repaired' | 'invalid' | 'unknownTool', Outcome>;
  /** `resources/read notes://index` and `prompts/get summarize_notes`, as text. */
  resource: string;
  prompt: string;
}

const media = [{ url: 'https://example.com/1.png' }, { url: 'https://example.com/2.png' }];

export async function runSession(url: string, era: Era, send?: FetchLike): Promise<Transcript> {
  const client = await connect(era, url, send);
  try {
    const { tools } = await client.listTools();
    const listBody = await client.lastBody('tools/list');
    const call = async (name: string, args: unknown): Promise<Outcome> => {
      try {
        const r = (await client.callTool(name, args)) as Outcome;
        return { isError: r.isError ?? false, content: r.content, structuredContent: r.structuredContent };
      } catch (error: any) {
        return { error: { code: error?.code, message: String(error?.message ?? error) } };
      }
    };
    return {
      era,
      listBody,
      toolNames: tools.map((t) => t.name),
      outcomes: {
        unionObject: await call('send_message', {
          chatId: 'c-1',
          type: 'message',
          text: 'hi',
          media: { url: 'https://example.com/a.png' },
        }),
        unionArray: await call('send_message', { chatId: 'c-1', type: 'mediaGroup', media }),
        repaired: await call('send_message', { chatId: 'c-2', type: 'mediaGroup', media: JSON.stringify(media) }),
        invalid: await call('send_message', { chatId: 'c-3', type: 'mediaGroup', media: [{ url: 42 }, media[1]] }),
        unknownTool: await call('no_such_tool', {}),
      },
      resource: await client.readResource('notes://index'),
      prompt: await client.getPrompt('summarize_notes', { topic: 'cats' }),
    };
  } finally {
    await client.close();
  }
}

/** What every adapter must answer for the shared example tools (checked once per transcript). */
export function expectedOutcomes() {
  return {
    unionObject: { sent: true, chatId: 'c-1', type: 'message', attachments: 1 },
    unionArray: { sent: true, chatId: 'c-1', type: 'mediaGroup', attachments: 2 },
    repaired: { sent: true, chatId: 'c-2', type: 'mediaGroup', attachments: 2 },
  };
}

/** The text of a result's content. */
export function textOf(outcome: Outcome): string {
  return ((outcome.content as Array<{ text?: string }> | undefined) ?? []).map((c) => c.text ?? '').join('\n');
}

/** The checks every transcript must pass, whatever adapter produced it. */
export function checkTranscript(t: Transcript) {
  expect(t.toolNames).toEqual(['send_message', 'publish_post', 'search_notes']);
  const list = parseBody(t.listBody) as { result: { tools: Array<{ name: string; inputSchema: unknown }> } };
  const sendMessage = list.result.tools.find((tool) => tool.name === 'send_message');
  expect(JSON.stringify(sendMessage?.inputSchema)).not.toMatch(/"(oneOf|anyOf|allOf)"/);
  const expected = expectedOutcomes();
  for (const key of ['unionObject', 'unionArray', 'repaired'] as const) {
    const outcome = t.outcomes[key];
    expect(outcome.isError, `${key}: ${textOf(outcome)}`).toBe(false);
    expect(JSON.parse(textOf(outcome))).toEqual(expected[key]);
  }
  expect(t.outcomes.invalid.isError).toBe(true);
  expect(textOf(t.outcomes.invalid)).toContain('media[0].url');
  const unknown = t.outcomes.unknownTool;
  expect(unknown.error !== undefined || unknown.isError === true, JSON.stringify(unknown)).toBe(true);
  expect(unknown.error?.message ?? textOf(unknown)).toContain('no_such_tool');
  expect(t.resource).toBe('n-1 First note\nn-2 Second note');
  expect(t.prompt).toBe('Summarize my notes about cats.');
}

/** A JSON-RPC response body, sent as JSON or as one SSE `message` event. */
export function parseBody(body: string): any {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return JSON.parse(trimmed);
  const data = trimmed
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((line) => line.length > 0);
  return JSON.parse(data[data.length - 1] ?? 'null');
}
