/**
 * Which tools one request may see and call (`access.visibleTools`), decided once per request, after
 * authentication. See docs/decisions/0012-access-control.md.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { AnyTool } from '../model/tool.js';
import type { VisibleTools } from './options.js';
import type { AccessPolicy } from './settle.js';

/** Whether one request may see a tool (`visibleTools`' answer, as a predicate over served tools). */
export type Visibility = (served: { readonly name: string; readonly tool: AnyTool }) => boolean;

/** Runs `visibleTools` for this request, or undefined when every tool is visible. A throw is passed on. */
export function toolVisibility(
  access: AccessPolicy,
  request: Request,
  authInfo: AuthInfo | undefined,
  host: unknown,
): Visibility | undefined | Promise<Visibility | undefined> {
  // Without `visibleTools` the answer is known at once: a request pays no turn of the event loop for it.
  if (!access.visibleTools) return undefined;
  return visibleFor(access.visibleTools, request, authInfo, host);
}

async function visibleFor(
  visibleTools: NonNullable<AccessPolicy['visibleTools']>,
  request: Request,
  authInfo: AuthInfo | undefined,
  host: unknown,
): Promise<Visibility> {
  return asVisibility(await visibleTools({ authInfo, request, host: host ?? {} }));
}

/** `visibleTools`' answer as a predicate. @throws TypeError for anything else (a 500 that onError sees). */
function asVisibility(answer: VisibleTools): Visibility {
  if (typeof answer === 'function') {
    // Asked once per tool and request, however often the request looks.
    const seen = new Map<object, boolean>();
    return (r) => {
      const known = seen.get(r);
      if (known !== undefined) return known;
      const visible = answer(r.tool) === true;
      seen.set(r, visible);
      return visible;
    };
  }
  if (answer instanceof Set) return (r) => answer.has(r.name);
  if (Array.isArray(answer)) {
    const names = new Set(answer);
    return (r) => names.has(r.name);
  }
  throw new TypeError('mcp-mount: visibleTools must return tool names (an array or a Set) or a predicate');
}
