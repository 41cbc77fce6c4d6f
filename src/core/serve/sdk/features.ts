/**
 * Seam (docs/design/sdk-seams.md, pinned by test/unit/serve/sdk-seams.test.ts): what the `features` hook
 * registers is found by shadowing `registerPrompt` and `registerResource` on the one per-request server the
 * hook is handed (own properties over the prototype's methods), so each item's config and handler pass through
 * the access rules (access/features.ts) and each item's handle can take it off again.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { FeatureGuard, RegisteredFeature } from '../../access/features.js';
import { isPlainObject } from '../../json-schema/types.js';

/**
 * Makes `server`'s prompt and resource registrations go through `guard`, and returns the list that each
 * registration the hook makes from now on is recorded in.
 */
export function interceptFeatures(server: McpServer, guard: FeatureGuard): RegisteredFeature[] {
  const items: RegisteredFeature[] = [];
  const prompt = server.registerPrompt.bind(server) as (...args: unknown[]) => { remove(): void };
  const resource = server.registerResource.bind(server) as (...args: unknown[]) => { remove(): void };
  Object.assign(server, {
    registerPrompt: (name: string, itemConfig: unknown, ...rest: unknown[]) => {
      const { config: checked, challenge } = guard.config(itemConfig);
      const handle = prompt(name, checked, ...guard.handler(rest, `Prompt ${name}`));
      items.push({ kind: 'prompt', name, ...(challenge && { challenge }), remove: () => handle.remove() });
      return handle;
    },
    registerResource: (name: string, uriOrTemplate: unknown, itemConfig: unknown, ...rest: unknown[]) => {
      const { config: checked, challenge } = guard.config(itemConfig);
      const handle = resource(name, uriOrTemplate, checked, ...guard.handler(rest, `Resource ${name}`));
      const template = typeof uriOrTemplate !== 'string';
      const uri = template ? templateText(uriOrTemplate) : uriOrTemplate;
      items.push({
        kind: template ? 'resource-template' : 'resource',
        name,
        ...(uri !== undefined && { uri }),
        ...(challenge && { challenge }),
        remove: () => handle.remove(),
      });
      return handle;
    },
  });
  return items;
}

function templateText(template: unknown): string | undefined {
  const uriTemplate = isPlainObject(template) ? template.uriTemplate : undefined;
  return uriTemplate === undefined ? undefined : String(uriTemplate);
}
