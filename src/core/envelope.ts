import { z } from 'zod';
import { type Repair, repairArgs } from './repair/index.js';

// Stands for "the arguments object" when the whole `arguments` arrives as one JSON string.
const ARGUMENTS_OBJECT = z.looseObject({});

/**
 * Fixes two client faults in a `tools/call` envelope that the SDK's request schema would refuse with
 * `-32602` before any tool sees the call:
 * - `arguments: null` is treated as no arguments, i.e. `{}` (repair.md BR-32);
 * - the whole `arguments` sent as one JSON string holding an object is parsed (issue 4, item 2), within
 *   the repair limits and without prototype keys, when `coerceJsonArgs` is on.
 * Returns the message to hand to the SDK (a copy where changed) and the repairs made.
 */
export function normalizeEnvelope(message: unknown, json: boolean): { body: unknown; repairs: Repair[] } {
  // JSON-RPC batches (gone since MCP 2025-06-18) pass through untouched.
  if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params)) {
    return { body: message, repairs: [] };
  }
  const params = message.params;
  if (params.arguments === null) {
    const { arguments: _null, ...rest } = params;
    return { body: { ...message, params: rest }, repairs: [] };
  }
  if (typeof params.arguments === 'string' && json) {
    const repaired = repairArgs(params.arguments, ARGUMENTS_OBJECT, { json: true, scalars: false });
    if (isRecord(repaired.value)) {
      return { body: { ...message, params: { ...params, arguments: repaired.value } }, repairs: repaired.repairs };
    }
  }
  return { body: message, repairs: [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
