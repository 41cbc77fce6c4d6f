// Rules and helpers that more than one client profile uses (profiles.ts, local-grammar-profile.ts).

import { declaredProperties, findingsAt } from './positions.js';
import { subject } from './schema-facts.js';
import type { Finding, Rule, SchemaVisit } from './types.js';

export const each = (
  keywords: readonly string[],
  visit: SchemaVisit,
  finding: (keyword: string) => Finding | undefined,
): Finding[] => keywords.filter((k) => k in visit.node).flatMap((k) => finding(k) ?? []);

// --- Rules shared by more than one profile -------------------------------------------------------

export const rootCombinator = (client: string): Rule => ({
  id: 'root-combinator',
  reason: `${client} rejects oneOf/anyOf/allOf at the top level of a tool schema`,
  severity: 'error',
  check: (visit) =>
    visit.parent
      ? undefined
      : each(['oneOf', 'anyOf', 'allOf'], visit, (k) => ({
          message: `${client} rejects a root \`${k}\`; serve one object (flattenUnionInput, or a tagged union)`,
        })),
});

export const formatList = (client: string, allowed: readonly string[], advice: string): Rule => ({
  id: 'unsupported-format',
  reason: `${client} accepts only the formats ${allowed.join(', ')}`,
  severity: 'error',
  check: (visit) =>
    typeof visit.node.format === 'string' && !allowed.includes(visit.node.format)
      ? { message: `${subject(visit)} has format "${visit.node.format}", which ${client} rejects; ${advice}` }
      : undefined,
});

export const formatAdvice =
  'put the format in the description (e.g. `z.string().describe("URL").pipe(z.url())`) and keep the check in Zod';

/** Object properties that fail `test`, one finding per property, at the property's pointer. */
export const perProperty = (
  visit: SchemaVisit,
  test: (key: string, schema: unknown) => string | undefined,
): Finding[] => findingsAt(declaredProperties(visit.node, visit), ({ key, schema }) => test(key, schema));
