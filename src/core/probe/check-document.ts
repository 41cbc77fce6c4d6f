import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { walkSchemas } from '../json-schema/visit.js';
import { BASE_RULES } from './base-rules.js';
import type { SchemaIssue } from './issue.js';
import { findNonJsonValues } from './json-values.js';
import { metaSchemaViolations } from './meta-schema/index.js';
import { optionRules } from './option-rules.js';
import { PROFILES, resolveProfiles } from './profiles.js';
import { indexRefs } from './refs.js';
import { rootNotObject, rootProblem } from './root.js';
import type { CheckContext, Finding, Rule, RuleContext, SchemaVisit } from './types.js';

/**
 * Checks one served document (a tool's input or output schema, exactly as `tools/list` serves it) and
 * returns every issue found. Pure: it never changes the document, and a malformed document gives issues,
 * not exceptions. Base rules always run; `ctx.options` adds the typed-property and portable-format rules
 * and client profiles. Profiles describe what model clients accept in tool parameters, so they run on the
 * input side only.
 */
export function checkDocument(doc: JsonSchema, ctx: CheckContext): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  // Output issues say so in the message as well as in `side`, since logs often print the message alone.
  const prefix = ctx.side === 'output' ? 'Output schema: ' : '';
  const report = (issue: Omit<SchemaIssue, 'tool' | 'side'>) =>
    issues.push({ tool: ctx.tool, side: ctx.side, ...issue, message: prefix + issue.message });

  for (const { path, what } of findNonJsonValues(doc)) {
    report({ path, code: 'non-json-value', severity: 'error', message: `the value is ${what}` });
  }
  if (!isPlainObject(doc)) {
    report({ path: '', code: rootNotObject.id, severity: 'error', message: rootProblem(doc, ctx)! });
    return issues;
  }
  for (const { path, expected } of metaSchemaViolations(doc)) {
    report({ path, code: 'invalid-json-schema', severity: 'error', message: invalidSchemaMessage(path, expected) });
  }

  const { rules, below, unknown } = rulesFor(ctx);
  for (const name of unknown) {
    report({
      path: '',
      code: 'unknown-profile',
      severity: 'error',
      message: `unknown schemaValidation profile "${name}"; known profiles: ${Object.keys(PROFILES).join(', ')}`,
    });
  }

  const ruleCtx: RuleContext = { ...ctx, doc, refs: indexRefs(doc) };
  const visits = walkSchemas(doc);
  // Indexed loops and no per-rule allocation: this runs for every rule at every node of every document at
  // startup, where the code is still cold. Below the root, the root's own rules are not asked.
  for (let v = 0; v < visits.length; v++) {
    const visit = visits[v]!;
    const asked = v === 0 ? rules : below;
    for (let r = 0; r < asked.length; r++) {
      const { rule, profile } = asked[r]!;
      let found: ReturnType<Rule['check']>;
      try {
        found = rule.check(visit, ruleCtx);
      } catch (error) {
        // A rule that trips over a malformed node must not take the whole probe down with it.
        found = { severity: 'error', message: `check ${rule.id} could not read this node: ${String(error)}` };
      }
      if (found === undefined) continue;
      if (!Array.isArray(found)) report(finding(found, visit, rule, profile));
      else for (let f = 0; f < found.length; f++) report(finding(found[f]!, visit, rule, profile));
    }
  }
  return issues;
}

type RuleEntry = { rule: Rule; profile?: string };

/**
 * The rules for one kind of check, in the order their issues are listed for one node (`below`: without the
 * root-only ones), and the unknown profile names.
 */
type RuleSet = { rules: readonly RuleEntry[]; below: readonly RuleEntry[]; unknown: readonly string[] };
const ruleSets = new Map<string, RuleSet>();

/**
 * The rules a check runs: the base rules, the ones its options switch on, then each profile's (input side
 * only), without those for the other side. Built once per kind of check, not once per document.
 */
function rulesFor(ctx: CheckContext): RuleSet {
  const names = ctx.side === 'input' ? (ctx.options.profiles ?? []) : [];
  const flags = `${ctx.side} ${ctx.options.requireTypedProperties ? 1 : 0}${ctx.options.requirePortableFormats ? 1 : 0}`;
  const key = names.length === 0 ? flags : `${flags} ${JSON.stringify(names)}`;
  let known = ruleSets.get(key);
  if (!known) {
    const { profiles, unknown } = resolveProfiles(names);
    const rules = [
      ...[...BASE_RULES, ...optionRules(ctx.options)].map((rule): RuleEntry => ({ rule })),
      ...profiles.flatMap((p) => p.rules.map((rule): RuleEntry => ({ rule, profile: p.name }))),
    ].filter(({ rule }) => !rule.sides || rule.sides.includes(ctx.side));
    known = { rules, below: rules.filter(({ rule }) => !rule.rootOnly), unknown };
    ruleSets.set(key, known);
  }
  return known;
}

/** One finding as the issue `report` completes: at the node's pointer and with the rule's severity unless it says. */
function finding(f: Finding, visit: SchemaVisit, rule: Rule, profile: string | undefined) {
  return {
    path: f.path ?? visit.pointer,
    code: rule.id,
    severity: f.severity ?? rule.severity,
    message: f.message,
    ...(profile !== undefined && { profile }),
  };
}

/** `deprecated` (at `/properties/a/deprecated`) must be boolean: what the meta-schema says, and where it came from. */
function invalidSchemaMessage(path: string, expected: string): string {
  const token = path
    .slice(path.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  const subject = path === '' ? 'the document' : `\`${token}\``;
  return `${subject} ${expected}, so the document is not valid JSON Schema 2020-12 and strict clients refuse it (Anthropic does); a keyword given in .meta() must have the type the specification gives it`;
}
