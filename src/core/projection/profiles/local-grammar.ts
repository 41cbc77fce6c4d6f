import { LOCAL_GRAMMAR_LIMITS } from '../../json-schema/client-limits.js';
import type { JsonSchema } from '../../json-schema/types.js';
import type { Rewrite, Rewrites } from './walk.js';

const BOUNDS = ['maxLength', 'minLength', 'maxItems', 'minItems'] as const;

/** SUPERSET: a length or item bound a grammar would unroll that many times is not advertised. */
const dropLargeBounds: Rewrite = (node) => {
  const large = BOUNDS.filter((k) => typeof node[k] === 'number' && node[k] >= LOCAL_GRAMMAR_LIMITS.repetition);
  if (large.length === 0) return undefined;
  const out: JsonSchema = { ...node };
  for (const k of large) delete out[k];
  return out;
};

/** SUPERSET: a pattern longer than grammar converters handle is not advertised. */
const dropLongPattern: Rewrite = (node) => {
  if (typeof node.pattern !== 'string' || node.pattern.length <= LOCAL_GRAMMAR_LIMITS.patternLength) return undefined;
  const { pattern: _pattern, ...rest } = node;
  return rest;
};

/**
 * `local-grammar`: models that compile the schema to a sampling grammar. Large bounds and long patterns
 * are not advertised (SUPERSET; the Zod checks still run on every call). Untyped array items and deep
 * nesting stay: no rewrite could add a type or remove a level without refusing values.
 */
export const LOCAL_GRAMMAR: Rewrites = { pre: [dropLargeBounds, dropLongPattern] };
