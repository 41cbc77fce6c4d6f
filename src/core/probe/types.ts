import type { JsonSchema } from '../json-schema/types.js';
import type { SchemaVisit } from '../json-schema/visit.js';
import type { SchemaIssueCode } from './issue.js';
import type { RefIndex } from './refs.js';

export type { SchemaVisit };

/**
 * What the checks read of the user's `schemaValidation` options, each meaning what the mount's
 * `SchemaValidationOptions` documents; the mount's type adds `policy`, which is the mount's business.
 * `allowUntyped` entries are `<tool>:<pointer>`, e.g. `'search:/properties/payload'`, where the pointer is
 * the property's JSON Pointer in the served input document, exactly as the issue reports it. `:` cannot
 * occur in a valid tool name, so the entry splits unambiguously.
 */
export interface CheckOptions {
  profiles?: readonly string[];
  requireTypedProperties?: boolean;
  allowUntyped?: readonly string[];
  requirePortableFormats?: boolean;
  allowFormats?: readonly string[];
}

/** What the checks know about the document besides the document itself. */
export interface CheckContext {
  tool: string;
  side: 'input' | 'output';
  /** `flattenUnionInput` was asked for, so a union left in the input document is worth reporting. */
  flattenRequested: boolean;
  /** Top-level keys of the tool's Zod shape(s); served root `properties` must not be empty when this is not. */
  zodShapeKeys?: string[];
  /** The document keeps `$ref`s by design (the `faithful` projection), so a non-recursive one is no issue. */
  keepsRefs?: boolean;
  /** The projection the document is (`faithful`, `flat`, a profile's), when the mount names one. */
  projection?: string;
  /**
   * Unions the flattener had to leave, with its reason, by JSON Pointer into the served document; or what
   * finds them, asked only when a rule reports a union (most documents have none left).
   */
  unflattened?:
    | ReadonlyArray<{ pointer: string; reason: string }>
    | (() => ReadonlyArray<{ pointer: string; reason: string }>);
  options: CheckOptions;
}

/** The context rules run in: the check context plus facts computed once per document. */
export interface RuleContext extends CheckContext {
  doc: JsonSchema;
  refs: RefIndex;
}

/** What a rule found; `path` defaults to the visited node's pointer, `severity` to the rule's. */
export interface Finding {
  message: string;
  path?: string;
  severity?: 'error' | 'warning' | 'info';
}

/**
 * A check as data: a stable id (the issue code), a one-line reason that says which client or spec
 * needs it, and the check itself. Rules only read; they never change the document.
 */
export interface Rule {
  id: SchemaIssueCode;
  reason: string;
  severity: 'error' | 'warning';
  /** Sides it applies to; both when absent. */
  sides?: ReadonlyArray<'input' | 'output'>;
  /** It finds nothing below the root (its check answers undefined there), so it is asked at the root only. */
  rootOnly?: boolean;
  check(visit: SchemaVisit, ctx: RuleContext): Finding | Finding[] | undefined;
}

/** A named set of rules for one client family. */
export interface Profile {
  name: string;
  /** Which client this describes and where its limits come from. */
  summary: string;
  rules: Rule[];
}
