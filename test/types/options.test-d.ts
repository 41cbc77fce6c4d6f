/**
 * Type tests for the options grouped by concern (ADR 0016, 0033): the groups take their keys, each misuse is a
 * type error (a key at the top level that belongs to a group, a key in the wrong group, a misspelt key, a
 * projection that is not one), and each group's key list is exactly its options type's keys. Checked by
 * `npm run typecheck`; settleOptions refuses the same at run time (never-rejects.test.ts).
 */
import {
  type AccessOptions,
  type CallEvent,
  defineTool,
  type McpMountOptions,
  type ObserveOptions,
  type ProjectionName,
  type TaskJob,
  type TaskEvent,
  type TaskRunReport,
  validateMcpSchemas,
} from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp } from 'mcp-mount/hono';
import { createMemoryTaskStore } from 'mcp-mount/tasks/memory';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ACCESS_KEYS } from '../../src/core/access/settle.js';
import type { ArgumentsOptions } from '../../src/core/arguments/options.js';
import type { ARGUMENTS_KEYS } from '../../src/core/arguments/settle.js';
import type { DocumentsOptions } from '../../src/core/documents/options.js';
import type { DOCUMENTS_KEYS } from '../../src/core/documents/settle.js';
import type { LimitsOptions } from '../../src/core/limits/options.js';
import type { LIMITS_KEYS } from '../../src/core/limits/settle.js';
import type { OBSERVE_KEYS } from '../../src/core/observe/settle.js';
import type { ProjectionOptions, SchemaValidationOptions } from '../../src/core/prepare/options.js';
import type { PROJECTION_KEYS, SCHEMA_VALIDATION_KEYS } from '../../src/core/prepare/settle.js';
import type { TOP_LEVEL_KEYS } from '../../src/core/serve/config.js';
import type { MountServerOptions, SERVER_KEYS } from '../../src/core/serve/identity.js';
import type { PROTOCOL_KEYS, ProtocolOptions } from '../../src/core/serve/protocol.js';
import { optionKeys } from '../../src/core/settle/checks.js';
import type { TasksOptions } from '../../src/core/tasks/options.js';
import type { TASKS_KEYS } from '../../src/core/tasks/settle.js';

const tool = defineTool({ name: 'ping', input: z.object({}), handler: () => 'pong' });

describe('the groups', () => {
  it('take every option in its place', () => {
    const options = {
      server: {
        name: 'notes',
        version: '1.0.0',
        title: 'Team notes',
        instructions: 'Search the notes first.',
        features: (server) => void server.registerPrompt('p', {}, () => ({ messages: [] })),
      },
      projection: { choose: 'auto', serve: ['flat', 'cursor'], prepare: 'at-startup', errors: 'fail' },
      schemaValidation: { policy: 'warn', profiles: ['gemini'] },
      arguments: {
        json: false,
        scalars: false,
        nullAsAbsent: false,
        unknownKeys: 'reject',
        injectedKeys: [],
        hygiene: false,
      },
      access: {
        checkOrigin: true,
        origins: ['https://app.example.com'],
        hosts: ['localhost'],
        cors: { credentials: true },
        auth: { verify: () => undefined, required: false },
        visibleTools: () => ['ping'],
        listUnauthorizedTools: true,
      },
      observe: { onCall: () => {}, onError: () => {}, logger: console, redact: (args) => args, exposeErrors: true },
      limits: { maxRequestBodyBytes: 1024, maxArgumentDepth: 8, maxArgumentValues: 1000 },
      protocol: {
        logging: true,
        responseMode: 'json',
        keepAliveMs: 20_000,
        requestState: { verify: async () => undefined },
        compressList: false,
      },
    } satisfies McpMountOptions;
    createMcpFetchHandler([tool], options);
    validateMcpSchemas([tool], options);
    mcp([tool], options);
    fetchMcp([tool], { ...options, path: '/mcp' });
    expectTypeOf<AccessOptions['origins']>().toEqualTypeOf<readonly string[] | undefined>();
    expectTypeOf<ObserveOptions['exposeErrors']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Parameters<NonNullable<ObserveOptions['onCall']>>[0]['clientGone']>().toEqualTypeOf<
      'cancelled' | 'disconnected' | undefined
    >();
  });

  it('take a projection as a name, auto, a function, or { choose, serve }; flattenUnionInput stays', () => {
    createMcpFetchHandler([tool], { projection: 'cursor' });
    createMcpFetchHandler([tool], { projection: 'auto' });
    createMcpFetchHandler([tool], { projection: (client) => (client.name === 'x' ? 'faithful' : 'flat') });
    createMcpFetchHandler([tool], { projection: { choose: () => 'flat' as ProjectionName, serve: ['flat'] } });
    createMcpFetchHandler([tool], { flattenUnionInput: true });
  });

  it('take tasks.run as a hook handed a { taskId, tool } job; the handler runs that job and reports how', () => {
    const store = createMemoryTaskStore();
    const queued: TaskJob[] = [];
    const mount = createMcpFetchHandler([tool], { tasks: { store, run: (job) => void queued.push(job) } });
    createMcpFetchHandler([tool], { tasks: { store, run: async (job) => void (await Promise.resolve(job.taskId)) } });
    expectTypeOf<TaskJob>().toEqualTypeOf<{ readonly taskId: string; readonly tool: string }>();
    expectTypeOf(mount.runTask).parameter(0).toEqualTypeOf<TaskJob>();
    expectTypeOf(mount.runTask).returns.resolves.toEqualTypeOf<TaskRunReport>();
    // @ts-expect-error the hook is handed a job, not a request
    createMcpFetchHandler([tool], { tasks: { store, run: (job: Request) => void job } });
  });

  it('take observe.onTask as a hook handed a TaskEvent: what happened, to which task of which tool, how long since', () => {
    const seen: TaskEvent[] = [];
    createMcpFetchHandler([tool], { observe: { onTask: (event) => void seen.push(event) } });
    expectTypeOf<TaskEvent['kind']>().toEqualTypeOf<
      'created' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'lost'
    >();
    expectTypeOf<TaskEvent['status']>().toEqualTypeOf<
      'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'
    >();
    expectTypeOf<TaskEvent['via']>().toEqualTypeOf<'inline-wait' | 'immediate' | 'queue' | undefined>();
    expectTypeOf<TaskEvent['caller']>().toEqualTypeOf<CallEvent['caller']>();
    expectTypeOf<TaskEvent['requestId']>().toEqualTypeOf<CallEvent['requestId']>();
    expectTypeOf<TaskEvent['durationMs']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error onTask is observe's
    createMcpFetchHandler([tool], { tasks: { store: createMemoryTaskStore(), onTask: () => {} } });
  });
});

describe('each misuse is a type error', () => {
  it("a group's key at the top level", () => {
    // @ts-expect-error name is server.name
    mcp([tool], { name: 'x' });
    // @ts-expect-error onError is observe.onError
    validateMcpSchemas([tool], { onError: () => {} });
    // @ts-expect-error extend is arguments.extend
    createMcpFetchHandler([tool], { extend: { schema: z.object({}) } });
    // @ts-expect-error prepareProjections is projection.prepare
    createMcpFetchHandler([tool], { projection: 'auto', prepareProjections: 'at-startup' });
    // @ts-expect-error server takes an object of options
    createMcpFetchHandler([tool], { server: () => {} });
    // @ts-expect-error maxRequestBodyBytes is limits.maxRequestBodyBytes
    fetchMcp([tool], { path: '/mcp', maxRequestBodyBytes: 1 });
  });

  it('a key in the wrong group', () => {
    // @ts-expect-error onCall is observe's
    createMcpFetchHandler([tool], { arguments: { onCall: () => {} } });
    // @ts-expect-error logging is protocol's
    createMcpFetchHandler([tool], { observe: { logging: true } });
    // @ts-expect-error auth is access's
    createMcpFetchHandler([tool], { protocol: { auth: { verify: () => undefined } } });
  });

  it('a misspelt key', () => {
    // @ts-expect-error jsn is not an arguments switch
    createMcpFetchHandler([tool], { arguments: { jsn: true } });
    // @ts-expect-error allowedOrigins is origins inside access
    createMcpFetchHandler([tool], { access: { allowedOrigins: [] } });
  });

  it('a projection that is not one', () => {
    // @ts-expect-error 'nope' is no projection
    createMcpFetchHandler([tool], { projection: { choose: 'auto', serve: ['nope'] } });
    // @ts-expect-error { choose, serve } needs choose
    createMcpFetchHandler([tool], { projection: { serve: ['flat'] } });
    // @ts-expect-error choose is 'auto' or a function, not a name
    createMcpFetchHandler([tool], { projection: { choose: 'flat', serve: ['flat'] } });
    // @ts-expect-error a wrong value of a group key
    createMcpFetchHandler([tool], { arguments: { unknownKeys: 'drop' } });
  });
});

describe("each group's key list is exactly its options type's keys", () => {
  it('holds for every group', () => {
    expectTypeOf<(typeof TOP_LEVEL_KEYS)[number]>().toEqualTypeOf<keyof McpMountOptions>();
    expectTypeOf<(typeof SERVER_KEYS)[number]>().toEqualTypeOf<keyof MountServerOptions>();
    expectTypeOf<(typeof PROJECTION_KEYS)[number]>().toEqualTypeOf<keyof ProjectionOptions>();
    expectTypeOf<(typeof SCHEMA_VALIDATION_KEYS)[number]>().toEqualTypeOf<keyof SchemaValidationOptions>();
    expectTypeOf<(typeof DOCUMENTS_KEYS)[number]>().toEqualTypeOf<keyof DocumentsOptions>();
    expectTypeOf<(typeof ARGUMENTS_KEYS)[number]>().toEqualTypeOf<keyof ArgumentsOptions>();
    expectTypeOf<(typeof ACCESS_KEYS)[number]>().toEqualTypeOf<keyof AccessOptions>();
    expectTypeOf<(typeof LIMITS_KEYS)[number]>().toEqualTypeOf<keyof LimitsOptions>();
    expectTypeOf<(typeof OBSERVE_KEYS)[number]>().toEqualTypeOf<keyof ObserveOptions>();
    expectTypeOf<(typeof PROTOCOL_KEYS)[number]>().toEqualTypeOf<keyof ProtocolOptions>();
    expectTypeOf<ProtocolOptions['keepAliveMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ProtocolOptions['compressList']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<(typeof TASKS_KEYS)[number]>().toEqualTypeOf<keyof TasksOptions>();
  });

  it('a list that misses a key of its type, or names one its type lacks, does not compile', () => {
    // @ts-expect-error `stale` is missing
    optionKeys<DocumentsOptions>()(['module']);
    // @ts-expect-error `when` is no key of DocumentsOptions
    optionKeys<DocumentsOptions>()(['module', 'stale', 'when']);
    // @ts-expect-error a key added to the type (`retries`) and not to the list
    optionKeys<LimitsOptions & { retries?: number }>()([
      'maxRequestBodyBytes',
      'maxArgumentDepth',
      'maxArgumentValues',
      'timeoutMs',
      'rate',
      'concurrency',
    ]);
    expectTypeOf(optionKeys<DocumentsOptions>()(['stale', 'module'])).toEqualTypeOf<readonly ['stale', 'module']>();
  });
});
