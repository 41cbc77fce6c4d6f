import { OPENAI_STRICT_FORMATS } from '../../json-schema/client-limits.js';
import { declaredTypes } from '../../json-schema/keywords.js';
import { isPlainObject, type JsonSchema } from '../../json-schema/types.js';
import { dropFormatsOutside, intersectionToNode, requireEveryKey, unionToJoin } from './common.js';
import { withNull } from './nulls.js';
import type { Rewrite, Rewrites } from './walk.js';

const isObjectNode = (node: JsonSchema) =>
  (declaredTypes(node)?.includes('object') ?? false) || isPlainObject(node.properties);

/** Free-form keys and no declared ones (`z.record`): strict mode cannot say it, so it is left for the probe. */
const isOpenRecord = (node: JsonSchema) =>
  ((node.additionalProperties !== undefined && node.additionalProperties !== false) ||
    'patternProperties' in node ||
    'propertyNames' in node) &&
  (!isPlainObject(node.properties) || Object.keys(node.properties).length === 0);

/**
 * Every object (not a record): every key in `required`, each key that was optional made nullable, and
 * `additionalProperties: false`.
 * - Optional → required + nullable: NARROWING modulo repair. The model must send every key; it sends
 *   null for one it means to leave out, and repair treats null for an optional key whose schema refuses
 *   null as absent (`nullAsAbsent`), so the one Zod parse sees the key left out.
 * - Closed: NARROWING, reported where the object let undeclared keys through to the handler (a loose or
 *   catch-all object, pattern keys). A strip object's undeclared keys are dropped by Zod anyway, so
 *   closing it takes away nothing a call could use and is not reported.
 */
const strictObject: Rewrite = (node, ctx) => {
  if (!isObjectNode(node) || isOpenRecord(node)) return undefined;
  const properties: JsonSchema = isPlainObject(node.properties) ? node.properties : {};
  const required: unknown[] = Array.isArray(node.required) ? node.required : [];
  const keys = Object.keys(properties);
  const missing = keys.filter((k) => !required.includes(k));
  const open = node.additionalProperties !== undefined && node.additionalProperties !== false;
  const patterned = 'patternProperties' in node || 'propertyNames' in node;
  if (missing.length === 0 && node.additionalProperties === false && !patterned) return undefined;

  const out: JsonSchema = { ...node };
  delete out.patternProperties;
  delete out.propertyNames;
  out.additionalProperties = false;
  if (open || patterned) {
    ctx.narrow(
      'closed with additionalProperties: false, as OpenAI strict mode requires; undeclared keys cannot be sent',
    );
  }
  requireEveryKey(out, { properties, required, missing }, withNull, 'as OpenAI strict mode requires', ctx);
  return out;
};

/**
 * `openai-strict`: function calling with `strict: true`. Intersections become one object and unions
 * (other than nullable wrappers, which strict mode takes) the typed join (SUPERSET); formats strict mode
 * lacks are dropped (SUPERSET); then, bottom-up, every object is made strict (`strictObject`). Open records
 * (`z.record`) stay: strict mode has no way to say free-form keys.
 */
export const OPENAI_STRICT: Rewrites = {
  pre: [intersectionToNode, unionToJoin, dropFormatsOutside(OPENAI_STRICT_FORMATS)],
  post: [strictObject],
};
