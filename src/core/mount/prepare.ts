import { z } from 'zod';
import type { JsonSchema } from '../json-schema/types.js';
import { checkDocument, checkToolNames, rootProblem } from '../probe/index.js';
import type { SchemaIssue } from '../probe/issue.js';
import {
  collapseNullable,
  dropSafeIntegerBounds,
  flattenWithReport,
  inlineRefs,
  relaxIntersections,
} from '../projection/index.js';
import { mergeRootObjects, type RootPart } from '../projection/merge-slices.js';
import { toJsonSchema } from '../zod/convert.js';
import { shapeKeys } from '../zod/shape-keys.js';
import { type MountConfig, settleOptions } from './config.js';
import type { ExtendOption } from './options.js';
import { probeServerHook, type ServerSurface } from './server-hook.js';
import type { AnyTool, AnyZodObject } from './tool.js';

/** One argument slice a tool parses on its own: the keys it owns and its original Zod schema. */
export interface Slice {
  keys: ReadonlySet<string>;
  schema: z.ZodType;
}

/** A tool after preparation: what `tools/list` serves and what `tools/call` parses with. */
export interface PreparedTool {
  tool: AnyTool;
  name: string;
  /** The served `inputSchema`, deep-frozen. */
  inputSchema: JsonSchema;
  /** The served `outputSchema`, deep-frozen, when the tool declares `output`. */
  outputSchema?: JsonSchema;
  /** False when the tool cannot be served at all (conversion failed, root not an object, key conflict). */
  servable: boolean;
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
  /** What the `server` hook registered in its run at construction (nothing without the option). */
  surface: ServerSurface;
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
  const { flatten, validation, extend } = config;
  const extendSide = extend ? prepareSide(extend.schema, flatten) : undefined;

  const prepared = tools.map((tool): PreparedTool => {
    const name = tool.name;
    const input = (tool.input as z.ZodType | undefined) ?? EMPTY_INPUT;
    const useExtend = extend !== undefined && (extend.filter?.(tool) ?? true);
    const argumentKeys = [
      ...new Set([
        ...(tool.params ? Object.keys(tool.params.shape) : []),
        ...shapeKeys(input),
        ...(useExtend ? Object.keys(extend.schema.shape) : []),
      ]),
    ];
    const result: PreparedTool = { tool, name, inputSchema: {}, servable: false, input, argumentKeys };
    const issue = (path: string, code: string, message: string, side: SchemaIssue['side'] = 'input') =>
      issues.push({ tool: name, path, code, message, severity: 'error', side });

    const sides: Array<{ slice: RootPart['slice']; side: ReturnType<typeof prepareSide> }> = [];
    if (tool.params) sides.push({ slice: 'params', side: prepareSide(tool.params, flatten) });
    sides.push({ slice: 'input', side: prepareSide(input, flatten) });
    if (useExtend && extendSide) sides.push({ slice: 'extend', side: extendSide });

    let servable = true;
    for (const { slice, side } of sides) {
      if (side.ok) continue;
      for (const field of side.fields) {
        issue(field.path, 'conversion-failed', `${slice} schema cannot be converted to JSON Schema: ${field.message}`);
      }
      servable = false;
    }
    const converted = sides.flatMap(({ slice, side }) => (side.ok ? [{ slice, side }] : []));
    const nonObject = converted.find(({ side }) => !isPlainObjectRoot(side.schema));
    let served: JsonSchema | undefined;
    if (servable && nonObject) {
      // Served as is only to the checks, which report why the root is not an object; never to clients.
      served = nonObject.side.schema;
      servable = false;
    } else if (servable) {
      const merged = mergeRootObjects(converted.map(({ slice, side }) => ({ slice, schema: side.schema })));
      if (merged.ok) served = merged.schema;
      else {
        servable = false;
        for (const c of merged.conflicts) {
          issue(
            `/properties/${c.key}`,
            'key-conflict',
            `tool "${name}": key "${c.key}" is declared by both ${c.slices.join(' and ')}; the arguments are split by key, so each key may belong to one of params, input and extend only`,
          );
        }
      }
    }

    if (served) {
      issues.push(
        ...checkDocument(served, {
          tool: name,
          side: 'input',
          flattenRequested: flatten,
          zodShapeKeys: [...new Set(converted.flatMap(({ side }) => side.shapeKeys))],
          unflattened: converted.flatMap(({ side }) => side.unflattened),
          options: validation,
        }),
      );
      result.inputSchema = deepFreeze(served);
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

    if (tool.params) result.params = { keys: new Set(Object.keys(tool.params.shape)), schema: tool.params };
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
  const hook = probeServerHook(config.serverHook, config.server);
  return { tools: prepared, issues: onceEach([...issues, ...hook.issues]), surface: hook.surface };
}

/** Tools whose names are invalid or duplicated can never be served: their registration would be ambiguous. */
export function nameIssues(issues: readonly SchemaIssue[]): SchemaIssue[] {
  return issues.filter((i) => i.side === 'name' && i.severity === 'error');
}

type PreparedSide =
  | { ok: true; schema: JsonSchema; unflattened: Array<{ pointer: string; reason: string }>; shapeKeys: string[] }
  | Extract<ReturnType<typeof toJsonSchema>, { ok: false }>;

function prepareSide(schema: z.ZodType | AnyZodObject, flatten: boolean): PreparedSide {
  const converted = toJsonSchema(schema, 'input');
  if (!converted.ok) return converted;
  // Zod's safe-integer bounds go first, so that merged keys never compare them.
  const inlined = dropSafeIntegerBounds(inlineRefs(stripDialect(converted.schema)).schema) as JsonSchema;
  // Without flattening, intersections are still relaxed: JSON Schema's allOf refuses a key one strict member
  // lacks, where Zod refuses only keys no side knows, and the served schema must stay a superset.
  const projected = flatten ? flattenWithReport(inlined) : { schema: relaxIntersections(inlined), unflattened: [] };
  // Last, so that a nullable union flattened into one object is served as a nullable object too.
  const served = collapseNullable(projected.schema) as JsonSchema;
  return { ok: true, schema: served, unflattened: projected.unflattened, shapeKeys: shapeKeys(schema) };
}

/** `$schema` is dropped: MCP's `inputSchema` dialect is 2020-12 by default, and the document is a fragment we merge. */
function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** The probe's own root rule decides, so serving and the `root-not-object` issue never disagree. */
function isPlainObjectRoot(schema: JsonSchema): boolean {
  return rootProblem(schema, { tool: '', side: 'input', flattenRequested: false, options: {} }) === undefined;
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
