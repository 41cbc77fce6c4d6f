/**
 * The server the official MCP conformance suite expects (its tool, resource and prompt names and answers),
 * written as an mcp-mount user would: tools with `defineTool`, everything else in the `server` hook, and
 * the 2026-07-28 multi-round-trip tools returning the SDK's `inputRequired(...)`. Every adapter serves this
 * one module (test/conformance/servers/, run.ts).
 */
import {
  acceptedContent,
  completable,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  ProtocolError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { defineTool, type McpMountOptions, type ServerHook, type ToolContext } from 'mcp-mount';
import { createMemoryTaskStore } from 'mcp-mount/tasks/memory';
import { z } from 'zod';

// A 1x1 PNG and a 44-byte silent WAV, base64.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ type: 'text' as const, text: value });

/** The suite's requestState must be integrity-protected; a fixed key, since every round may reach any process. */
const codec = createRequestStateCodec<{ round: number }>({ key: 'mcp-mount-conformance-fixture-key-0000' });

const NameSchema = z.object({ name: z.string() });
const askName = (message: string) => inputRequired.elicit({ message, requestedSchema: NameSchema });

/** Which input-request methods the client's per-request capabilities allow. */
function clientCan(ctx: ToolContext, capability: 'elicitation' | 'sampling' | 'roots'): boolean {
  const envelope = ctx.mcp.mcpReq.envelope as Record<string, Record<string, unknown> | undefined> | undefined;
  const caps = envelope?.['io.modelcontextprotocol/clientCapabilities'];
  return caps?.[capability] !== undefined;
}

const coreTools = [
  defineTool({
    name: 'test_simple_text',
    description: 'Returns simple text content',
    handler: () => ({ content: [text('This is a simple text response for testing.')] }),
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Returns image content',
    handler: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Returns audio content',
    handler: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource',
    handler: () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and an embedded resource',
    handler: () => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Sends three log messages while it runs',
    handler: async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await sleep(50);
      await ctx.log('info', 'Tool processing data');
      await sleep(50);
      await ctx.log('info', 'Tool execution completed');
      return { content: [text('Tool with logging executed successfully')] };
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress while it runs',
    handler: async (_args, ctx) => {
      await ctx.progress(0, { total: 100 });
      await sleep(50);
      await ctx.progress(50, { total: 100 });
      await sleep(50);
      await ctx.progress(100, { total: 100 });
      return { content: [text('Tool with progress executed successfully')] };
    },
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails',
    handler: () => ({ isError: true, content: [text('This tool intentionally returns an error for testing')] }),
  }),
  defineTool({
    name: 'test_sampling',
    description: 'Asks the client for a completion',
    input: z.object({ prompt: z.string() }),
    handler: ({ input }, ctx) => {
      const answer = inputResponse(ctx.mcp.mcpReq.inputResponses, 'completion');
      if (answer.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            completion: inputRequired.createMessage({
              messages: [{ role: 'user', content: text(input.prompt) }],
              maxTokens: 100,
            }),
          },
        });
      }
      const content = answer.result.content;
      return { content: [text(`LLM response: ${'text' in content ? content.text : JSON.stringify(content)}`)] };
    },
  }),
  defineTool({
    name: 'test_elicitation',
    description: 'Asks the user for input',
    input: z.object({ message: z.string() }),
    handler: ({ input }, ctx) => {
      const answer = inputResponse(ctx.mcp.mcpReq.inputResponses, 'user');
      if (answer.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            user: inputRequired.elicit({
              message: input.message,
              requestedSchema: {
                type: 'object',
                properties: {
                  username: { type: 'string', description: "User's response" },
                  email: { type: 'string', description: "User's email address" },
                },
                required: ['username', 'email'],
              },
            }),
          },
        });
      }
      return { content: [text(`User response: ${JSON.stringify(answer)}`)] };
    },
  }),
  // 2026-07-28 multi-round-trip (input_required) tools.
  defineTool({
    name: 'test_input_required_result_elicitation',
    description: 'Asks for a name, then greets',
    handler: (_args, ctx) => {
      const answer = acceptedContent(ctx.mcp.mcpReq.inputResponses, 'user_name', NameSchema);
      if (!answer) return inputRequired({ inputRequests: { user_name: askName('What is your name?') } });
      return { content: [text(`Hello, ${answer.name}!`)] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_sampling',
    description: 'Asks the client a question',
    handler: (_args, ctx) => {
      const answer = inputResponse(ctx.mcp.mcpReq.inputResponses, 'capital_question');
      if (answer.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            capital_question: inputRequired.createMessage({
              messages: [{ role: 'user', content: text('What is the capital of France?') }],
              maxTokens: 100,
            }),
          },
        });
      }
      const content = answer.result.content;
      return { content: [text(`Sampling said: ${'text' in content ? content.text : JSON.stringify(content)}`)] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_list_roots',
    description: "Asks for the client's roots",
    handler: (_args, ctx) => {
      const answer = inputResponse(ctx.mcp.mcpReq.inputResponses, 'client_roots');
      if (answer.kind !== 'roots') return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
      return { content: [text(`Roots: ${answer.roots.map((r) => r.uri).join(', ')}`)] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_request_state',
    description: 'Round-trips a signed requestState',
    handler: async (_args, ctx) => {
      const state = ctx.mcp.mcpReq.requestState<{ round: number }>();
      const answer = inputResponse(ctx.mcp.mcpReq.inputResponses, 'confirm');
      if (state?.round !== 1 || answer.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: 'Please confirm',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            }),
          },
          requestState: await codec.mint({ round: 1 }),
        });
      }
      return { content: [text('state-ok: confirmed')] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks for three inputs at once',
    handler: async (_args, ctx) => {
      const responses = ctx.mcp.mcpReq.inputResponses;
      const kinds = ['user_name', 'greeting', 'client_roots'].map((key) => inputResponse(responses, key).kind);
      if (kinds.includes('missing') || ctx.mcp.mcpReq.requestState() === undefined) {
        return inputRequired({
          inputRequests: {
            user_name: askName('What is your name?'),
            greeting: inputRequired.createMessage({
              messages: [{ role: 'user', content: text('Generate a greeting') }],
              maxTokens: 50,
            }),
            client_roots: inputRequired.listRoots(),
          },
          requestState: await codec.mint({ round: 1 }),
        });
      }
      return { content: [text(`Received ${kinds.join(', ')}`)] };
    },
  }),
  defineTool({
    name: 'test_input_required_result_multi_round',
    description: 'Asks twice, then answers',
    handler: async (_args, ctx) => {
      const round = ctx.mcp.mcpReq.requestState<{ round: number }>()?.round ?? 0;
      const responses = ctx.mcp.mcpReq.inputResponses;
      if (round === 1 && inputResponse(responses, 'step1').kind === 'elicit') {
        return inputRequired({
          inputRequests: {
            step2: inputRequired.elicit({
              message: 'Step 2: What is your favorite color?',
              requestedSchema: z.object({ color: z.string() }),
            }),
          },
          requestState: await codec.mint({ round: 2 }),
        });
      }
      if (round === 2 && inputResponse(responses, 'step2').kind === 'elicit') {
        return { content: [text('Both steps complete')] };
      }
      return inputRequired({
        inputRequests: { step1: askName('Step 1: What is your name?') },
        requestState: await codec.mint({ round: 1 }),
      });
    },
  }),
  defineTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Refuses a requestState it did not sign (the mount verifies it)',
    handler: async (_args, ctx) => {
      if (ctx.mcp.mcpReq.requestState() !== undefined) return { content: [text('state verified')] };
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Confirm?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
        requestState: await codec.mint({ round: 1 }),
      });
    },
  }),
  defineTool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for what the client declared it can give',
    handler: (_args, ctx) => {
      if (ctx.mcp.mcpReq.inputResponses) return { content: [text('thanks')] };
      const requests: Record<string, ReturnType<typeof inputRequired.listRoots>> = {};
      if (clientCan(ctx, 'elicitation')) requests.user_name = askName('What is your name?');
      if (clientCan(ctx, 'sampling')) {
        requests.question = inputRequired.createMessage({
          messages: [{ role: 'user', content: text('Say hello') }],
          maxTokens: 20,
        });
      }
      if (clientCan(ctx, 'roots')) requests.client_roots = inputRequired.listRoots();
      if (Object.keys(requests).length === 0) return { content: [text('nothing to ask this client')] };
      return inputRequired({ inputRequests: requests });
    },
  }),
  // The suite's 2020-12 reference tool: served as written by the default (faithful) projection, with
  // `$schema`, `$defs` (the address, with its `$anchor`), `additionalProperties: false`, and the author's
  // assertion-only root `allOf` and `if`/`then`/`else`, which Zod does not check: the refinements do.
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    input: z
      .strictObject({
        name: z.string(),
        email: z.string().optional(),
        phone: z.string().optional(),
        country: z.string().optional(),
        zip: z.string().optional(),
        address: z
          .object({ street: z.string(), city: z.string() })
          .meta({ id: 'address', $anchor: 'address' })
          .optional(),
      })
      .refine((v) => v.email !== undefined || v.phone !== undefined, 'give an email or a phone')
      .refine((v) => v.country !== 'US' || v.zip !== undefined, 'a US address needs a zip')
      .meta({
        allOf: [{ anyOf: [{ required: ['email'] }, { required: ['phone'] }] }],
        if: { properties: { country: { const: 'US' } }, required: ['country'] },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword.
        then: { required: ['zip'] },
      }),
    handler: ({ input }) => ({ content: [text(`ok ${input.name}`)] }),
  }),
  // Diagnostic tools of the 2026-07-28 stateless scenario.
  defineTool({
    name: 'test_missing_capability',
    description: 'Needs sampling: the SDK refuses a client that did not declare it (-32021)',
    handler: (_args, ctx) => {
      if (ctx.mcp.mcpReq.inputResponses) return { content: [text('sampled')] };
      return inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({ messages: [{ role: 'user', content: text('Hi') }], maxTokens: 10 }),
        },
      });
    },
  }),
  defineTool({
    name: 'test_streaming_elicitation',
    description: 'Reports progress, then asks for input',
    handler: async (_args, ctx) => {
      await ctx.progress(1, { total: 2 });
      if (ctx.mcp.mcpReq.inputResponses) return { content: [text('answered')] };
      return inputRequired({ inputRequests: { user_name: askName('What is your name?') } });
    },
  }),
  defineTool({
    name: 'test_logging_tool',
    description: 'Logs at every call; only a request that names a log level receives it',
    handler: async (_args, ctx) => {
      await ctx.log('info', 'logging tool ran');
      return { content: [text('logged')] };
    },
  }),
];

/** Resources, resource templates, prompts and completions, through the SDK's own API. */
/** Sleeps `ms`, or less when `signal` aborts (a cancelled task's handler stops early). */
const sleepUnless = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener('abort', stop, { once: true });
  });
const ConfirmSchema = z.object({ confirm: z.boolean() });
const askConfirm = (message: string) => inputRequired.elicit({ message, requestedSchema: ConfirmSchema });

/**
 * The tasks extension's fixture tools (the `tasks-*` scenarios of the 2026-07-28 suite), on the public API:
 * `task` on the tool, the store in `options.tasks`.
 */
export const taskTools = [
  defineTool({
    name: 'greet',
    description: 'Greets by name (never a task)',
    input: z.object({ name: z.string() }),
    handler: ({ input }) => ({ content: [text(`Hello, ${input.name}!`)] }),
  }),
  defineTool({
    name: 'slow_compute',
    description: 'Sleeps for `seconds`, then answers; a task when it runs past half a second',
    input: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
    task: { support: 'optional', inlineMs: 500 },
    handler: async ({ input }, ctx) => {
      await sleepUnless(input.seconds * 1000, ctx.signal);
      return { content: [text(`Computed ${input.label ?? 'result'} after ${input.seconds} s`)] };
    },
  }),
  defineTool({
    name: 'failing_job',
    description: 'Always runs as a task, and reports a tool error after about a second',
    task: { support: 'required' },
    handler: async (_args, ctx) => {
      await sleepUnless(1000, ctx.signal);
      return { content: [text('The job failed')], isError: true };
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    description: 'Runs as a task and fails with a JSON-RPC error',
    task: { support: 'optional', inlineMs: 0 },
    handler: async (_args, ctx) => {
      await sleepUnless(200, ctx.signal);
      throw new ProtocolError(-32603, 'The job crashed');
    },
  }),
  defineTool({
    name: 'confirm_delete',
    description: 'Asks for confirmation, then deletes (a task)',
    input: z.object({ filename: z.string() }),
    task: { support: 'optional', inlineMs: 0 },
    handler: ({ input }, ctx) => {
      const answer = acceptedContent(ctx.mcp.mcpReq.inputResponses, 'confirm', ConfirmSchema);
      if (!answer) return inputRequired({ inputRequests: { confirm: askConfirm(`Delete ${input.filename}?`) } });
      return { content: [text(answer.confirm ? `Deleted ${input.filename}` : `Kept ${input.filename}`)] };
    },
  }),
  defineTool({
    name: 'multi_input',
    description: 'Asks two questions at once (a task)',
    task: { support: 'optional', inlineMs: 0 },
    handler: (_args, ctx) => {
      const responses = ctx.mcp.mcpReq.inputResponses;
      const first = acceptedContent(responses, 'first', ConfirmSchema);
      const second = acceptedContent(responses, 'second', ConfirmSchema);
      if (first && second) return { content: [text(`Answers: ${first.confirm}, ${second.confirm}`)] };
      return inputRequired({ inputRequests: { first: askConfirm('First?'), second: askConfirm('Second?') } });
    },
  }),
  defineTool({
    name: 'test_tool_with_task',
    description: "Asks the user's name in a multi-round-trip round, then runs as a task",
    task: { support: 'required', inlineMs: 300 },
    handler: async (_args, ctx) => {
      const answer = acceptedContent(ctx.mcp.mcpReq.inputResponses, 'user_name', NameSchema);
      if (!answer) return inputRequired({ inputRequests: { user_name: askName('Your name?') } });
      await sleepUnless(1000, ctx.signal);
      return { content: [text(`Finished the task for ${answer.name}`)] };
    },
  }),
];

/** Every fixture tool: the suite's core tools and the tasks extension's. */
export const tools = [...coreTools, ...taskTools];

export const server: ServerHook = (s) => {
  s.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  );
  s.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }] }),
  );
  s.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content' }] }),
  );
  s.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'A resource template with one parameter', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );
  s.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments' }, () => ({
    messages: [{ role: 'user', content: text('This is a simple prompt for testing.') }],
  }));
  s.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments',
      argsSchema: z.object({
        arg1: completable(z.string().describe('First test argument'), (value) =>
          ['paris', 'park', 'party'].filter((v) => v.startsWith(value)),
        ),
        arg2: z.string().describe('Second test argument'),
      }),
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
    }),
  );
  s.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt embedding a resource',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    }),
  );
  s.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: text('Please analyze the image above.') },
    ],
  }));
  s.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'A prompt that asks for context first' },
    (ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_context', z.object({ context: z.string() }));
      if (!answer) {
        return inputRequired({
          inputRequests: {
            user_context: inputRequired.elicit({
              message: 'What context should the prompt use?',
              requestedSchema: z.object({ context: z.string() }),
            }),
          },
        }) as never;
      }
      return { messages: [{ role: 'user', content: text(`Use this context: ${answer.context}`) }] };
    },
  );
};

export const options: McpMountOptions = {
  server: { name: 'mcp-mount-conformance-fixture', version: '1.0.0', features: server },
  protocol: { logging: true, requestState: { verify: codec.verify } },
  // One process's tasks, shared by every (anonymous) scenario client: the suite authenticates nobody.
  tasks: { store: createMemoryTaskStore(), anonymousOwner: () => 'conformance', leaseMs: 1500 },
};
