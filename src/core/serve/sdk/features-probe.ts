/**
 * The `features` hook's one run at construction, on a throwaway server: what it registers, and what can be
 * checked of that before any request (docs/decisions/0013-the-rest-of-the-server.md).
 *
 * Seam (docs/design/sdk-seams.md, pinned by test/unit/serve/sdk-seams.test.ts): what the hook registers is
 * found by shadowing `registerTool`, `registerPrompt` and `registerResource` on that one instance (own
 * properties over the prototype's methods); the calls still go through to the SDK, so its own checks apply.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { type FeatureProbe, NO_FEATURES, type ServerHook } from '../../model/features.js';
import type { SchemaIssue, SchemaIssueCode } from '../../probe/issue.js';
import { type Accepts, acceptsOf, acceptsSomeString } from '../../zod/accepted-kinds.js';
import { shapeField } from '../../zod/child-schemas.js';
import { defOf, isSchema } from '../../zod/def.js';
import { shapeKeys } from '../../zod/shape-keys.js';

/**
 * Runs `hook` once on a throwaway server, recording what it registers (calls go through to the SDK, so
 * its own checks, like a duplicate name, apply), and checks what can be checked before any request:
 * - a tool registered in the hook (tools belong to the mount, and the hook is not run for `tools/call`);
 * - a prompt argument whose schema accepts no string: prompt arguments are strings on the wire
 *   (MCP 2025-11-25 server/prompts, `GetPromptRequest` `arguments: { [key: string]: string }`), so
 *   every `prompts/get` that sends it fails;
 * - a static resource URI that is not a URL in its canonical form: the SDK finds a resource by
 *   `new URL(uri).toString()`, so such a resource can never be read.
 * Never throws: a hook that throws becomes an issue.
 */
export function probeServerHook(hook: ServerHook | undefined, server: { name: string; version: string }): FeatureProbe {
  if (!hook) return NO_FEATURES;
  const issues: SchemaIssue[] = [];
  const issue = (subject: string, side: SchemaIssue['side'], path: string, code: SchemaIssueCode, message: string) =>
    issues.push({ tool: subject, side, path, code, message, severity: 'error' });
  const prompts: string[] = [];
  const resources: string[] = [];
  const resourceUris = new Map<string, { mimeType?: string }>();
  const target = new McpServer(server, { capabilities: { tools: { listChanged: false } } });
  const through = {
    registerTool: target.registerTool.bind(target) as (...args: unknown[]) => unknown,
    registerPrompt: target.registerPrompt.bind(target) as (...args: unknown[]) => unknown,
    registerResource: target.registerResource.bind(target) as (...args: unknown[]) => unknown,
  };
  // Own properties shadow the prototype's methods on this one throwaway instance only.
  Object.assign(target, {
    registerTool: (name: string, ...rest: unknown[]) => {
      issue(
        name,
        'server',
        '',
        'server-hook-registers-tool',
        `the server hook registers tool "${name}": give tools to the mount (defineTool), which serves tools/call without running the hook`,
      );
      return through.registerTool(name, ...rest);
    },
    registerPrompt: (name: string, config: { argsSchema?: unknown } | undefined, ...rest: unknown[]) => {
      prompts.push(name);
      for (const problem of promptArgumentProblems(config?.argsSchema)) {
        issue(name, 'prompt', problem.path, problem.code, `prompt "${name}": ${problem.message}`);
      }
      return through.registerPrompt(name, config, ...rest);
    },
    registerResource: (name: string, uriOrTemplate: unknown, ...rest: unknown[]) => {
      resources.push(name);
      if (typeof uriOrTemplate === 'string') resourceUris.set(uriOrTemplate, mimeTypeOf(rest[0]));
      if (typeof uriOrTemplate === 'string' && !isCanonicalUrl(uriOrTemplate)) {
        issue(
          name,
          'resource',
          '',
          'resource-uri-not-canonical',
          `resource "${name}": URI ${JSON.stringify(uriOrTemplate)} is not an absolute URL in canonical form; the SDK looks resources up by new URL(uri).toString(), so resources/read can never find it`,
        );
      }
      return through.registerResource(name, uriOrTemplate, ...rest);
    },
  });
  try {
    hook(target, { era: 'modern', host: undefined, probe: true });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    issue('*', 'server', '', 'server-hook-threw', `the server hook threw at construction: ${text}`);
  }
  return { surface: Object.freeze({ prompts, resources, resourceUris }), issues };
}

function mimeTypeOf(config: unknown): { mimeType?: string } {
  const mimeType = (config as { mimeType?: unknown } | undefined)?.mimeType;
  return typeof mimeType === 'string' ? { mimeType } : {};
}

interface Problem {
  path: string;
  code: SchemaIssueCode;
  message: string;
}

/** Arguments (keys of a Zod object `argsSchema`) that can never receive the string a client sends. */
function promptArgumentProblems(argsSchema: unknown): Problem[] {
  if (argsSchema === undefined || !isSchema(argsSchema)) return [];
  const def = defOf(argsSchema);
  if (def.type !== 'object') {
    return [{ path: '', code: 'prompt-arguments-not-object', message: 'argsSchema must be a z.object of arguments' }];
  }
  const problems: Problem[] = [];
  for (const key of shapeKeys(argsSchema)) {
    const accepts: Accepts = acceptsOf(shapeField(def, key));
    if (accepts.any || acceptsSomeString(accepts)) continue;
    problems.push({
      path: `/arguments/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`,
      code: 'prompt-argument-not-string',
      message: `argument "${key}" accepts no string, but prompt arguments always arrive as strings; use z.string() (or z.coerce.number() and the like)`,
    });
  }
  return problems;
}

function isCanonicalUrl(uri: string): boolean {
  try {
    return new URL(uri).toString() === uri;
  } catch {
    return false;
  }
}
