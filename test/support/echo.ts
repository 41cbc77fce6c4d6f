/** Tools whose handler echoes what it received, so a test can see exactly what reached the handler. */
import { type AnyTool, defineTool } from 'mcp-mount';
import type { z } from 'zod';
import type { McpClient } from '../../examples/shared/clients.js';
import { textOf } from './server.js';

/** A tool named `name` whose result text is the JSON of `{ params, input, repairs }` as the handler got them. */
export function echoTool(name: string, input: z.ZodType | undefined, params?: z.ZodObject<z.ZodRawShape>): AnyTool {
  return defineTool({
    name,
    params: params as z.ZodObject<z.ZodRawShape> | undefined,
    input,
    handler: ({ params: p, input: i }, ctx) => ({
      params: p,
      input: i,
      repairs: ctx.repairs,
      extend: ctx.extend ?? null,
    }),
  }) as AnyTool;
}

export interface Echo {
  isError: boolean;
  text: string;
  /** What the handler got, when the call succeeded. */
  received?: { params: unknown; input: unknown; repairs: Array<{ path: string; from: string }>; extend: unknown };
}

/** Calls an echo tool and decodes its result (the handler's JSON is the first text block). */
export async function callEcho(client: McpClient, name: string, args: unknown): Promise<Echo> {
  const result = await client.callTool(name, args);
  const text = textOf(result);
  return result.isError
    ? { isError: true, text }
    : { isError: false, text, received: JSON.parse(result.content[0]?.text ?? '') };
}
