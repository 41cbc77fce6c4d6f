/**
 * Type tests for ADR 0016, options grouped by concern: the groups take their keys, and each misuse is a
 * type error (a removed 0.0 flat name, a key in the wrong group, a misspelt key, a projection that is not
 * one). Checked by `npm run typecheck`; settleOptions refuses the same at run time (never-rejects.test.ts).
 */
import {
  type AccessOptions,
  defineTool,
  type McpMountOptions,
  type ObserveOptions,
  type ProjectionName,
  validateMcpSchemas,
} from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp } from 'mcp-mount/hono';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const tool = defineTool({ name: 'ping', input: z.object({}), handler: () => 'pong' });

describe('the groups', () => {
  it('take every option in its place', () => {
    const options = {
      server: {
        name: 'notes',
        version: '1.0.0',
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
      protocol: { logging: true, responseMode: 'json', requestState: { verify: async () => undefined } },
    } satisfies McpMountOptions;
    createMcpFetchHandler([tool], options);
    validateMcpSchemas([tool], options);
    mcp([tool], options);
    fetchMcp([tool], { ...options, path: '/mcp' });
    expectTypeOf<AccessOptions['origins']>().toEqualTypeOf<readonly string[] | undefined>();
    expectTypeOf<ObserveOptions['exposeErrors']>().toEqualTypeOf<boolean | undefined>();
  });

  it('take a projection as a name, auto, a function, or { choose, serve }; flattenUnionInput stays', () => {
    createMcpFetchHandler([tool], { projection: 'cursor' });
    createMcpFetchHandler([tool], { projection: 'auto' });
    createMcpFetchHandler([tool], { projection: (client) => (client.name === 'x' ? 'faithful' : 'flat') });
    createMcpFetchHandler([tool], { projection: { choose: () => 'flat' as ProjectionName, serve: ['flat'] } });
    createMcpFetchHandler([tool], { flattenUnionInput: true });
  });
});

describe('each misuse is a type error', () => {
  it('a removed 0.0 flat name', () => {
    // @ts-expect-error coerceJsonArgs is repair.json
    createMcpFetchHandler([tool], { coerceJsonArgs: false });
    // @ts-expect-error allowedOrigins is access.origins
    mcp([tool], { name: 'x', allowedOrigins: ['https://app.example.com'] });
    // @ts-expect-error onError is observe.onError
    validateMcpSchemas([tool], { onError: () => {} });
    // @ts-expect-error projections is projection: { choose, serve }
    createMcpFetchHandler([tool], { projection: 'auto', projections: ['flat'] });
    // @ts-expect-error server is features
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
    // @ts-expect-error jsn is not a repair switch
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
