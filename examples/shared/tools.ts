/**
 * The example tool set, shared by every example app (Hono, Express, Next.js, Workers) so that each
 * serves the same tools. It shows the three things mcp-mount is for:
 *   - `send_message`: a discriminated-union input where `media` is an object in one variant and an array
 *     in the other, advertised as ONE flat object with `flattenUnionInput`;
 *   - `publish_post`: an array of a discriminated union nested inside an object (flattened at depth);
 *   - `search_notes`: a plain tool.
 * Beside the tools, the same mount serves a resource (`notes://index`) and a prompt (`summarize_notes`),
 * registered with the MCP SDK's own API in the `features` option.
 */
import { defineTool, type ServerHook } from 'mcp-mount';
import * as z from 'zod';

const Media = z.object({ url: z.url().describe('Public URL of the image or video') });

export const sendMessage = defineTool({
  name: 'send_message',
  description: 'Send a text message, or a group of media, to a chat.',
  params: z.object({ chatId: z.string().describe('Target chat id') }),
  input: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('message'),
      text: z.string().min(1).describe('Message text'),
      media: Media.optional().describe('One attachment'),
    }),
    z.object({
      type: z.literal('mediaGroup'),
      media: z.array(Media).min(2).max(10).describe('Two to ten attachments, sent as an album'),
    }),
  ]),
  handler: ({ params, input }) => {
    const count = input.type === 'message' ? (input.media ? 1 : 0) : input.media.length;
    return { sent: true, chatId: params.chatId, type: input.type, attachments: count };
  },
});

export const publishPost = defineTool({
  name: 'publish_post',
  description: 'Publish a post made of content blocks.',
  input: z.object({
    title: z.string(),
    content: z.object({
      blocks: z.array(
        z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('paragraph'), text: z.string() }),
          z.object({ kind: z.literal('image'), url: z.url(), alt: z.string().optional() }),
          z.object({ kind: z.literal('code'), language: z.string(), source: z.string() }),
        ]),
      ),
    }),
    tags: z.array(z.string()).default([]),
  }),
  handler: ({ input }) => ({
    id: `post-${input.title.toLowerCase().replace(/\W+/g, '-')}`,
    blocks: input.content.blocks.map((b) => b.kind),
    tags: input.tags,
  }),
});

export const searchNotes = defineTool({
  name: 'search_notes',
  description: 'Search notes by text.',
  input: z.object({
    query: z.string().min(1),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  output: z.object({ query: z.string(), results: z.array(z.object({ id: z.string(), title: z.string() })) }),
  handler: ({ input }) => ({
    query: input.query,
    results: [{ id: 'n-1', title: `First note about ${input.query}` }].slice(0, input.limit),
  }),
});

export const tools = [sendMessage, publishPost, searchNotes];

/** A resource and a prompt, through the SDK's `McpServer` API, on each request's server. */
export const features: ServerHook = (s) => {
  s.registerResource(
    'notes-index',
    'notes://index',
    { title: 'Notes index', description: 'Every note, one title per line.', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'n-1 First note\nn-2 Second note' }] }),
  );
  s.registerPrompt(
    'summarize_notes',
    {
      title: 'Summarize notes',
      description: 'Ask for a summary of the notes about a topic.',
      argsSchema: z.object({ topic: z.string().describe('What the summary is about') }),
    },
    ({ topic }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize my notes about ${topic}.` } }],
    }),
  );
};

const base = { server: { name: 'mcp-mount-example', version: '0.1.0', features }, access: { cors: true } } as const;

/**
 * The options every example mounts with: every client is served the `flat` document (`flattenUnionInput`).
 * `access: { cors: true }` lets browser clients on localhost (the MCP Inspector, a local web app) call the examples;
 * other origins stay refused by the Origin check.
 */
export const options = { ...base, flattenUnionInput: true } as const;

/**
 * The same mount, serving each client the document its family accepts (`npm run demo` uses it):
 * `projection: { choose: 'auto' }` picks per `tools/list`, from the client's name (2026-07-28 `_meta` clientInfo) or,
 * for a 2025-era client, its User-Agent. Cursor gets the `cursor` projection, Claude `anthropic`, and so
 * on (`AUTO_PROJECTIONS`); a client it does not know gets `flat`, a superset that the AI SDK, LangChain and Mastra keep whole.
 * `serve` lists the families this server supports. Gemini is not one: the probe refuses the gemini
 * projection of `send_message`, whose `media` is an object in one variant and an array in the other, which
 * Gemini's schema dialect cannot say (`mcp-mount check examples/shared/tools.ts --projection auto`).
 */
export const perClientOptions = {
  ...base,
  projection: { choose: 'auto', serve: ['flat', 'cursor', 'anthropic', 'openai-strict', 'local-grammar'] },
} as const;
