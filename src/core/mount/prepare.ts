import * as z from 'zod';
import type { JsonSchema } from '../json-schema/types.js';
import { checkDocument, checkToolNames, checkToolScopes, type SettledScopes } from '../probe/index.js';
import type { SchemaIssue, SchemaIssueCode } from '../probe/issue.js';
import { inlineRefs } from '../projection/index.js';
import type { RootPart } from '../projection/merge-slices.js';
import { isProfileProjection, type ProjectionName } from '../projection/names.js';
import { toJsonSchema } from '../zod/convert.js';
import { shapeKeys } from '../zod/shape-keys.js';
import { type MountConfig, settleOptions } from './config.js';
import { type ConvertedSide, convertSide, isPlainObjectRoot, projectDocuments, stripDialect } from './documents.js';
import type { ExtendOption } from './options.js';
import { probeServerHook, type ServerSurface } from './server-hook.js';
import type { AnyTool } from './tool.js';

/** One argument slice a tool parses on its own: the keys it owns and its original Zod schema. */
export interface Slice {
  keys: ReadonlySet<string>;
  schema: z.ZodType;
}

/** A tool after preparation: what `tools/list` serves and what `tools/call` parses with. */
export interface PreparedTool {
  tool: AnyTool;
  name: string;
  /** The `inputSchema` of the first served projection (in the mount's order) that can serve the tool. */
  inputSchema: JsonSchema;
  /** The `inputSchema` of every served projection that can serve the tool, deep-frozen. */
  inputSchemas: Readonly<Partial<Record<ProjectionName, JsonSchema>>>;
  /** Top-level keys the tool requires (of its own document, not a profile's). */
  requiredKeys: readonly string[];
  /** The served `outputSchema`, deep-frozen, when the tool declares `output`. */
  outputSchema?: JsonSchema;
  /**
   * False when the tool cannot be served at all (conversion failed, key conflict, no projection with an
   * object root, `scopes` that cannot mean anything). A tool whose root is an object in some projections only
   * is listed in those.
   */
  servable: boolean;
  /** The tool's `scopes`, settled by the probe (`checkToolScopes`); undefined for a tool without any. */
  scopes?: SettledScopes;
  params?: Slice;
  extend?: Slice & { resolve?: ExtendOption['resolve'] };
  /** The input slice gets every key that `params` and `extend` do not own. */
  input: z.ZodType;
  /** Every top-level key any slice declares (every variant's, for a union input). */
  argumentKeys: readonly string[];
}

export interface Preparation {
  tools: PreparedTool[];
  issues: SchemaIssue[];
  /** What the `features` hook registered in its run at construction (nothing without the option). */
  surface: ServerSurface;
  /** The projections prepared, in the mount's order, and the default one (`config.projection`). */
  projections: { default: ProjectionName; served: readonly ProjectionName[] };
}

const EMPTY_INPUT = z.object({});

/**
 * The one preparation shared by `validateMcpSchemas` and every mount (docs/design/flatten.md, The pipeline):
 * convert params / input / extend to JSON Schema (input side), inline non-recursive `$ref`s, flatten
 * unions when asked, merge into one root object, then run the probe checks on exactly that document.
 * Runs once per mount; nothing here runs per request. Never throws for a bad schema: every problem
 * becomes a `SchemaIssue`.
 */
export function prepareTools(tools: readonly AnyTool[], config: MountConfig = settleOptions()): Preparation {
  const issues: SchemaIssue[] = checkToolNames(tools.map((t) => t.name));
  const { validation, extend, projection } = config;
  const extendSide = extend ? convertSide(extend.schema) : undefined;

  const prepared = tools.map((tool): PreparedTool => {
    const name = tool.name;
    const input = (tool.input as z.ZodType | undefined) ?? EMPTY_INPUT;
    const useExtend = extend !== undefined && (extend.filter?.(tool) ?? true);
    const argumentKeys = [
      ...new Set([
        ...(tool.params ? shapeKeys(tool.params) : []),
        ...shapeKeys(input),
        ...(useExtend ? Object.keys(extend.schema.shape) : []),
      ]),
    ];
    const result: PreparedTool = {
      tool,
      name,
      inputSchema: {},
      inputSchemas: {},
      requiredKeys: [],
      servable: false,
      input,
      argumentKeys,
    };
    const issue = (path: string, code: SchemaIssueCode, message: string, side: SchemaIssue['side'] = 'input') =>
      issues.push({ tool: name, path, code, message, severity: 'error', side });

    const sides: Array<{ slice: RootPart['slice']; side: ConvertedSide }> = [];
    if (tool.params) sides.push({ slice: 'params', side: convertSide(tool.params) });
    sides.push({ slice: 'input', side: convertSide(input) });
    if (useExtend && extendSide) sides.push({ slice: 'extend', side: extendSide });

    let servable = true;
    for (const { slice, side } of sides) {
      if (side.converted.ok) continue;
      for (const field of side.converted.fields) {
        issue(field.path, 'conversion-failed', `${slice} schema cannot be converted to JSON Schema: ${field.message}`);
      }
      servable = false;
    }

    if (servable) {
      const documents = projectDocuments(sides, projection.served);
      for (const c of documents.conflicts) {
        issue(
          `/properties/${c.key}`,
          'key-conflict',
          `tool "${name}": key "${c.key}" is declared by both ${c.slices.join(' and ')}; the arguments are split by key, so each key may belong to one of params, input and extend only`,
        );
      }
      const zodShapeKeys = [...new Set(sides.flatMap(({ side }) => side.shapeKeys))];
      const served: Partial<Record<ProjectionName, JsonSchema>> = {};
      for (const doc of documents.documents) {
        // Named only when the mount serves several: one document needs no name.
        const tag = projection.served.length > 1 ? { projection: doc.projection } : {};
        const profiles = isProfileProjection(doc.projection)
          ? [...new Set([...(validation.profiles ?? []), doc.projection])]
          : validation.profiles;
        issues.push(
          ...checkDocument(doc.schema, {
            tool: name,
            side: 'input',
            flattenRequested: doc.projection !== 'faithful',
            keepsRefs: doc.projection === 'faithful',
            projection: doc.projection,
            zodShapeKeys,
            unflattened: doc.unflattened,
            options: { ...validation, ...(profiles && { profiles }) },
          }).map((i) => ({ ...i, ...tag })),
          ...doc.narrowed.map(
            (n): SchemaIssue => ({
              tool: name,
              path: n.pointer,
              code: 'narrowed',
              message: n.reason,
              severity: 'info',
              side: 'input',
              ...tag,
            }),
          ),
        );
        if (doc.servable) served[doc.projection] = deepFreeze(doc.schema);
      }
      result.inputSchemas = Object.freeze(served);
      const first = projection.served.find((p) => served[p] !== undefined);
      result.inputSchema = first === undefined ? {} : served[first]!;
      // The top-level keys every call must carry, from a document that states the tool's own (a strict-mode
      // profile lists every key as required).
      const base = served.faithful ?? served.flat ?? result.inputSchema;
      result.requiredKeys = Array.isArray(base.required) ? (base.required as string[]) : [];
      if (first === undefined) servable = false;
    }

    if (tool.output) {
      const out = toJsonSchema(tool.output, 'output');
      if (!out.ok) {
        for (const field of out.fields) {
          issue(
            field.path,
            'output-conversion-failed',
            `output schema cannot be converted to JSON Schema: ${field.message}`,
            'output',
          );
        }
        servable = false;
      } else {
        const doc = inlineRefs(stripDialect(out.schema)).schema;
        const outIssues = checkDocument(doc, {
          tool: name,
          side: 'output',
          flattenRequested: false,
          options: validation,
        });
        issues.push(...outIssues);
        if (!isPlainObjectRoot(doc)) servable = false;
        result.outputSchema = deepFreeze(doc);
      }
    }

    // Access is part of what is served: a tool whose scope rule cannot be built is not served unscoped.
    const access = checkToolScopes(name, tool.scopes);
    issues.push(...access.issues);
    if (access.issues.length > 0) servable = false;
    if (access.scopes) {
      result.scopes = access.scopes;
      if (!config.auth) issues.push(scopesWithoutAuth(name));
    }

    if (tool.params) result.params = { keys: new Set(shapeKeys(tool.params)), schema: tool.params };
    if (useExtend && extend) {
      result.extend = {
        keys: new Set(Object.keys(extend.schema.shape)),
        schema: extend.schema,
        resolve: extend.resolve,
      };
    }
    result.servable = servable;
    return result;
  });
  const hook = probeServerHook(config.features, config.server);
  return {
    tools: prepared,
    issues: onceEach([...issues, ...hook.issues]),
    surface: hook.surface,
    projections: { default: projection.default, served: projection.served },
  };
}

/**
 * A scoped tool on a mount without `auth`: a request counts as authenticated only when the framework in front
 * hands over `authInfo`, so without one the tool is hidden and its calls get 401. A warning, not an error: the
 * upstream may well pass it.
 */
function scopesWithoutAuth(tool: string): SchemaIssue {
  return {
    tool,
    path: '/scopes',
    code: 'scopes-without-auth',
    message: `tool "${tool}" has scopes, but the mount has no auth option: unless the framework in front passes authInfo (Express's req.auth, Hono's c.get('authInfo'), the fetch handler's extras.authInfo), every caller is unauthenticated, so the tool is left out of tools/list (unless access.listUnauthorizedTools) and its calls get 401; add access: { auth: { verify } } to check bearer tokens in the mount`,
    severity: 'warning',
    side: 'tool',
  };
}

/** A profile name is checked per document; one unknown name is reported once per mount, not once per tool. */
function onceEach(issues: SchemaIssue[]): SchemaIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    if (i.code !== 'unknown-profile') return true;
    if (seen.has(i.message)) return false;
    seen.add(i.message);
    return true;
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
