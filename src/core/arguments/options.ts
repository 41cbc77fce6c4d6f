/** The `arguments` options: how a call's arguments are read before the tools' parse, and keys every tool takes. */
import type { ExtendOption } from '../model/extend.js';
import type { AnyZodObject } from '../model/tool.js';

/**
 * How a call's arguments are read: repaired and checked before the tool's parse (docs/design/repair.md; every
 * repair is reported in `ctx.repairs` and `onCall`), and `extend`, keys the mount adds to every tool.
 */
export interface ArgumentsOptions<S extends AnyZodObject = AnyZodObject, R = unknown> {
  /** Parse object/array arguments sent as JSON text (see docs/design/repair.md). Default true. */
  json?: boolean;
  /**
   * Turn canonical `"42"`, `"true"`, `"null"` into the scalar the schema expects (see docs/design/repair.md).
   * Default true.
   */
  scalars?: boolean;
  /**
   * Read `null` for a key whose schema refuses null, where leaving the key out is valid, as the key left out
   * (docs/design/repair.md, ADR 0003): what a client that must send every key means (OpenAI strict mode, the
   * `openai-strict` projection). Reported as a repair. Default true.
   */
  nullAsAbsent?: boolean;
  /**
   * What happens to a key the tool's schema would silently drop (a plain `z.object` strips keys it does not
   * declare, at any depth), computed from the original Zod schema:
   * - `'notice'` (default): the call runs; the result gets one extra text block naming each ignored key,
   *   its path and the closest declared key; `ctx.ignoredKeys` and `onCall` list them too;
   * - `'reject'`: the call is refused (`isError`) with the same text;
   * - `'strip'`: the key is dropped without a word.
   * Strict objects keep their own "unrecognized key" error; keys of `params` and `extend` count as declared.
   * @throws TypeError at construction for any other value.
   */
  unknownKeys?: 'notice' | 'reject' | 'strip';
  /**
   * Top-level keys clients add on their own, never reported as ignored. Default `['toolCallId']` (n8n).
   * @throws TypeError at construction when not an array of strings.
   */
  injectedKeys?: string[];
  /**
   * Refuse a string argument that holds tool-call markup (`</parameter>`, `<parameter name=`, `</invoke>`,
   * `<invoke name=`, `</function_calls>`): a client that folded later arguments into an earlier string.
   * The refusal names the field and the declared arguments that went missing. Default true.
   */
  hygiene?: boolean;
  /**
   * Keys added to every tool it applies to (e.g. a `tenantId`), parsed once with `extend.schema`, handed to
   * `resolve`, and removed before the tool's own parse; what `resolve` returns is `ctx.extend`. Generic over the
   * schema and `resolve`'s result, so that `resolve` and tools see them typed.
   * @example arguments: { extend: { schema: z.object({ tenantId: z.string() }), resolve: ({ tenantId }) => tenants.get(tenantId) } }
   */
  extend?: ExtendOption<S, R>;
}
