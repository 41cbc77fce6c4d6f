import * as z from 'zod';
import { isPlainObject } from '../json-schema/types.js';
import { type ArgumentLimits, DEFAULT_MAX_ARGUMENT_DEPTH, DEFAULT_MAX_ARGUMENT_VALUES } from '../mount/config.js';
import { type Repair, repairArgs } from '../repair/index.js';

// Stands for "the arguments object" when the whole `arguments` arrives as one JSON string.
const ARGUMENTS_OBJECT = z.looseObject({});

/**
 * Fixes two client faults in a `tools/call` envelope that the SDK's request schema would refuse with
 * `-32602` before any tool sees the call:
 * - `arguments: null` is treated as no arguments, i.e. `{}`;
 * - the whole `arguments` sent as one JSON string holding an object is parsed, within
 *   `limits` (the mount's `maxArgumentDepth` and `maxArgumentValues`) and without prototype keys, when
 *   `coerceJsonArgs` is on;
 * - any other non-object `arguments` is set aside, and the call fails with `isError` naming the root.
 * Returns the message to hand to the SDK (a copy where changed) and the repairs made.
 */
export function normalizeEnvelope(
  message: unknown,
  json: boolean,
  limits: ArgumentLimits = { maxDepth: DEFAULT_MAX_ARGUMENT_DEPTH, maxValues: DEFAULT_MAX_ARGUMENT_VALUES },
): { body: unknown; repairs: Repair[]; rejected?: string } {
  // JSON-RPC batches (gone since MCP 2025-06-18) pass through untouched.
  if (!isPlainObject(message) || message.method !== 'tools/call' || !isPlainObject(message.params)) {
    return { body: message, repairs: [] };
  }
  const params = message.params;
  if (!('arguments' in params) || isPlainObject(params.arguments)) return { body: message, repairs: [] };
  const withArguments = (args: Record<string, unknown>) => ({ ...message, params: { ...params, arguments: args } });
  if (params.arguments === null) return { body: withArguments({}), repairs: [] };
  if (typeof params.arguments === 'string' && json) {
    // The text is parsed within the mount's argument limits, as JSON text anywhere inside the arguments is.
    const repaired = repairArgs(params.arguments, ARGUMENTS_OBJECT, {
      json: true,
      scalars: false,
      maxDepth: limits.maxDepth,
      maxNodes: limits.maxValues,
    });
    if (isPlainObject(repaired.value)) return { body: withArguments(repaired.value), repairs: repaired.repairs };
  }
  // Any other shape (an array, a number, text that is not a JSON object): a client mistake the tool answers
  // with `isError` naming the root, like any invalid call, rather than the SDK's -32602 request dump.
  return {
    body: withArguments({}),
    repairs: [],
    rejected: argumentsNotAnObject(params.arguments),
  };
}

/** The failure text for `arguments` that are not an object (shared with `checkCall` for direct callers). */
export function argumentsNotAnObject(value: unknown): string {
  const received =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'string'
          ? 'text that is not a JSON object'
          : typeof value;
  return `(root): expected an object of arguments, received ${received}`;
}
