/**
 * Type tests for issue codes: `SchemaIssue['code']` is a union of string literals, exported from the root
 * entry as `SchemaIssueCode`, so a `switch` over it can be exhaustive and a misspelt code does not compile.
 * Checked by `npm run typecheck`. A new code fails `whatToDo` below until it gets its case.
 */
import { type SchemaIssue, type SchemaIssueCode, validateMcpSchemas } from 'mcp-mount';
import { describe, expectTypeOf, it } from 'vitest';

function unreachable(code: never): never {
  throw new Error(`unexpected issue code ${String(code)}`);
}

/** What a deploy script might do per code: every code has a case, and `default` sees `never`. */
function whatToDo(code: SchemaIssueCode): 'schema' | 'profile' | 'definition' | 'options' | 'hook' | 'bug' | 'none' {
  switch (code) {
    case 'non-json-value':
    case 'invalid-json-schema':
    case 'root-not-object':
    case 'zod-keys-missing':
    case 'required-not-in-properties':
    case 'invalid-enum':
    case 'ref-not-inlined':
    case 'duplicate-anchor':
    case 'union-not-flattened':
    case 'unsatisfiable':
    case 'properties-without-object-type':
    case 'array-without-items':
    case 'ambiguous-string-union':
    case 'required-nullable':
    case 'untyped-property':
    case 'non-portable-format':
    case 'conversion-failed':
    case 'output-conversion-failed':
    case 'key-conflict':
      return 'schema';
    case 'root-combinator':
    case 'unsupported-format':
    case 'additional-properties-not-false':
    case 'optional-key':
    case 'open-record':
    case 'nested-union':
    case 'type-list':
    case 'null-branch':
    case 'union':
    case 'const':
    case 'non-string-enum':
    case 'record-keyword':
    case 'ref':
    case 'untyped':
    case 'combinator':
    case 'property-name':
    case 'nullable-type-list':
    case 'large-bound':
    case 'long-pattern':
    case 'untyped-item':
    case 'deep-nesting':
    case 'object-literal':
    case 'prefix-items':
    case 'unresolved-ref':
      return 'profile';
    case 'invalid-tool-name':
    case 'duplicate-tool-name':
    case 'invalid-scopes':
    case 'scopes-without-auth':
    case 'invalid-tool-field':
    case 'invalid-icon':
    case 'invalid-meta-key':
    case 'reserved-meta-key':
      return 'definition';
    case 'unknown-profile':
    case 'invalid-option':
    case 'stale-documents':
      return 'options';
    case 'server-hook-threw':
    case 'server-hook-registers-tool':
    case 'prompt-argument-not-string':
    case 'prompt-arguments-not-object':
    case 'resource-uri-not-canonical':
    case 'app-view-not-registered':
    case 'app-view-mime-type':
      return 'hook';
    case 'internal-error':
      return 'bug';

    case 'narrowed':
    case 'pattern-flags':
    case 'unsafe-number':
    case 'projection-fallback':
      return 'none';
    default:
      return unreachable(code);
  }
}

describe('SchemaIssueCode', () => {
  it("is SchemaIssue['code'], and what validateMcpSchemas' issues carry", () => {
    expectTypeOf<SchemaIssue['code']>().toEqualTypeOf<SchemaIssueCode>();
    expectTypeOf(validateMcpSchemas([]).issues[0]!.code).toEqualTypeOf<SchemaIssueCode>();
    expectTypeOf(whatToDo).parameter(0).toEqualTypeOf<SchemaIssueCode>();
  });

  it('is a union of literals: a code the probe never emits, or any string, is not one', () => {
    expectTypeOf<'root-not-object'>().toExtend<SchemaIssueCode>();
    expectTypeOf<string>().not.toExtend<SchemaIssueCode>();
    // @ts-expect-error no such code
    const misspelt: SchemaIssueCode = 'root-not-an-object';
    void misspelt;
  });

  it('makes a switch that leaves codes out fail to compile at its exhaustiveness check', () => {
    const partial = (code: SchemaIssueCode) => {
      switch (code) {
        case 'root-not-object':
          return 'root';
        default:
          // @ts-expect-error every other code still reaches here
          return unreachable(code);
      }
    };
    void partial;
  });
});
