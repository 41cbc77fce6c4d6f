/**
 * Logging and progress from a tool (`ctx.log`, `ctx.progress`), sent through the SDK's request context so
 * they travel on the exchange of the call itself: an event stream in both eras (`responseMode: 'json'`
 * drops them in 2026-07-28, where the answer is then one JSON body).
 */
import type { LoggingLevel, ServerContext } from '@modelcontextprotocol/server';
import type { ToolSignals } from '../model/tool.js';
import { observeError } from '../observe/observe.js';
import type { Observer } from '../observe/settle.js';

/**
 * `ctx.log` and `ctx.progress` for one call. Neither rejects: a notification that cannot be sent (the
 * client went away) reaches `onError` and the tool goes on.
 */
export function toolSignals(mcp: ServerContext, logging: boolean, observer: Observer, tool: string): ToolSignals {
  const settle = (sent: Promise<void>) =>
    sent.catch((error: unknown) => void observeError(observer, error, { phase: 'notification', tool }));
  return {
    // The SDK's own filter applies: nothing without the `logging` capability; in 2025-era serving the
    // level set by `logging/setLevel`, in 2026-07-28 the level the request's `_meta` names (none: nothing).
    log: (level: LoggingLevel, data: unknown, logger?: string) =>
      logging ? settle(mcp.mcpReq.log(level, data, logger)) : Promise.resolve(),
    // The token is read when progress is sent: the direct path builds `mcpReq` only when it is read.
    progress: (progress: number, detail: { total?: number; message?: string } = {}) => {
      const progressToken = mcp.mcpReq._meta?.progressToken;
      return progressToken === undefined
        ? Promise.resolve()
        : settle(
            mcp.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken, progress, ...detail },
            }),
          );
    },
  };
}
