/**
 * The probe's tool-level rules: every field of the MCP `Tool` object a definition carries beside its schemas
 * (`title`, `icons`, `annotations`, `_meta`, `execution`), checked once at construction. Shapes are held to
 * the SDK's own spec-type validators (`specTypeSchemas`); what those leave open (an icon's URI scheme, the
 * `_meta` key grammar and its reserved prefixes, tasks that stateless serving cannot run) is checked here.
 * Each problem is a `side: 'tool'` issue with a pointer into the definition (`/icons/0/src`). Never throws.
 */
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import type { SchemaIssue, SchemaIssueCode } from './issue.js';

type Issue = (path: string, code: SchemaIssueCode, message: string, severity?: SchemaIssue['severity']) => void;

/** The issues of `tool`'s non-schema fields, in field order. */
export function checkToolFields(definition: object): SchemaIssue[] {
  const tool = definition as Readonly<Record<string, unknown>>;
  const name = String(tool.name);
  const issues: SchemaIssue[] = [];
  const issue: Issue = (path, code, message, severity = 'error') =>
    issues.push({ tool: name, path, code, message: `tool "${name}": ${message}`, severity, side: 'tool' });
  if (tool.title !== undefined && typeof tool.title !== 'string') {
    issue('/title', 'invalid-tool-field', `title must be a string, got ${shortLiteral(tool.title)}`);
  }
  checkIcons(tool.icons, issue);
  specShape('ToolAnnotations', tool.annotations, '/annotations', issue);
  checkMeta(tool._meta, issue);
  checkExecution(tool.execution, issue);
  return issues;
}

/** A field held to the SDK's validator for its spec type: one `invalid-tool-field` per issue it reports. */
function specShape(type: 'ToolAnnotations' | 'ToolExecution', value: unknown, at: string, issue: Issue): boolean {
  if (value === undefined) return true;
  const result = specTypeSchemas[type]['~standard'].validate(value);
  if (result instanceof Promise || !result.issues) return true;
  for (const problem of result.issues) {
    issue(pointer(at, problem.path), 'invalid-tool-field', `${at.slice(1)}: ${problem.message}`);
  }
  return false;
}

/**
 * `icons`: a list of MCP `Icon`s whose `src` is an `https:`/`http:` URL or a `data:` URI (MCP 2025-11-25
 * basic/index, Icons: clients must refuse other schemes, such as `javascript:` or `file:`).
 */
function checkIcons(icons: unknown, issue: Issue): void {
  if (icons === undefined) return;
  if (!Array.isArray(icons)) {
    issue('/icons', 'invalid-icon', `icons must be a list of icons, got ${shortLiteral(icons)}`);
    return;
  }
  icons.forEach((icon: unknown, i) => {
    const result = specTypeSchemas.Icon['~standard'].validate(icon);
    const problems = result instanceof Promise ? [] : (result.issues ?? []);
    for (const problem of problems) {
      issue(pointer(`/icons/${i}`, problem.path), 'invalid-icon', `icon ${i}: ${problem.message}`);
    }
    if (problems.length > 0 || !isPlainObject(icon)) return;
    const scheme = schemeOf(icon.src as string);
    if (scheme !== 'https:' && scheme !== 'http:' && scheme !== 'data:') {
      issue(
        `/icons/${i}/src`,
        'invalid-icon',
        `icon ${i}: src ${shortLiteral(icon.src)} is not an https: URL or a data: URI; clients refuse other icon sources`,
      );
    }
  });
}

function schemeOf(src: string): string | undefined {
  try {
    return new URL(src).protocol;
  } catch {
    return undefined;
  }
}

// A `_meta` key: an optional prefix of dot-separated labels and a slash, then a name (MCP basic/index, _meta).
const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const KEY_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/**
 * `_meta`: an object whose keys follow the spec's grammar, none under a prefix the spec reserves for MCP (a
 * prefix with a label `modelcontextprotocol` or `mcp`, as `io.modelcontextprotocol/`): those keys are the
 * protocol's, set by the SDK, and a tool's own would collide with them.
 */
function checkMeta(meta: unknown, issue: Issue): void {
  if (meta === undefined) return;
  if (!isPlainObject(meta)) {
    issue('/_meta', 'invalid-tool-field', `_meta must be an object, got ${shortLiteral(meta)}`);
    return;
  }
  for (const key of Object.keys(meta)) {
    const at = `/_meta/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const slash = key.lastIndexOf('/');
    const labels = slash < 0 ? [] : key.slice(0, slash).split('.');
    const name = key.slice(slash + 1);
    if (!labels.every((l) => LABEL.test(l)) || !KEY_NAME.test(name)) {
      issue(
        at,
        'invalid-meta-key',
        `_meta key ${shortLiteral(key)} is not a _meta key: an optional prefix of dot-separated labels and a slash (example.com/), then a name that begins and ends with a letter or digit`,
      );
    } else if (labels.some((l) => l === 'modelcontextprotocol' || l === 'mcp')) {
      issue(
        at,
        'reserved-meta-key',
        `_meta key ${shortLiteral(key)} is under a prefix MCP reserves for itself (a label "modelcontextprotocol" or "mcp"); use your own prefix, e.g. com.example/${name}`,
      );
    }
  }
}

/**
 * `execution`: the spec's shape, and no hand-written task support: tasks are opted into with `task`
 * (2026-07-28 clients; 2025-era clients get plain calls), which derives what 2025-era lists say.
 */
function checkExecution(execution: unknown, issue: Issue): void {
  if (!specShape('ToolExecution', execution, '/execution', issue) || !isPlainObject(execution)) return;
  const { taskSupport } = execution;
  if (taskSupport === 'required') {
    issue(
      '/execution/taskSupport',
      'invalid-tool-field',
      "execution.taskSupport is 'required', but mcp-mount serves 2025-era task requests no tasks, so no call could succeed; use task: { support: 'required' } (2026-07-28 tasks) and leave execution out",
    );
  } else if (taskSupport === 'optional') {
    issue(
      '/execution/taskSupport',
      'invalid-tool-field',
      "execution.taskSupport is 'optional', but mcp-mount serves 2025-era task requests no tasks: only plain calls of this tool work; use task: { support: 'optional' } (2026-07-28 tasks) and leave execution out",
      'warning',
    );
  }
}

function pointer(at: string, path: readonly unknown[] | undefined): string {
  const keys = (path ?? []).map((k) => (typeof k === 'object' && k !== null && 'key' in k ? k.key : k));
  return [at, ...keys.map((k) => String(k).replaceAll('~', '~0').replaceAll('/', '~1'))].join('/');
}
