import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { JsonSchema } from '../../json-schema/types.js';

type Validate = StandardSchemaWithJSON['~standard']['validate'];

/**
 * A Standard Schema the SDK registers a tool with: its JSON Schema is our precomputed, frozen document
 * (what `tools/list` serves), and its `validate` is ours (repair, then the original Zod parse).
 * The SDK never converts or validates with Zod itself, so nothing runs twice
 * (docs/decisions/0001-architecture-one-core-sdk-v2.md).
 */
export function carrier(document: JsonSchema, validate: Validate): StandardSchemaWithJSON {
  const emit = () => document as Record<string, unknown>;
  return {
    '~standard': { version: 1, vendor: 'mcp-mount', validate, jsonSchema: { input: emit, output: emit } },
  };
}
