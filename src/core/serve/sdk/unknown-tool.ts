/**
 * Seam (docs/design/sdk-seams.md, pinned by test/unit/serve/sdk-seams.test.ts): the SDK answers `tools/list`
 * and `tools/call` only once a tool has been registered on a server; a server that never registered one
 * answers both with "Method not found". Registering a tool and removing it again leaves the tool handlers
 * installed, answering an empty list and "Tool x not found" for any name, so an unknown and a hidden tool get
 * the same answer as on a mount that serves tools, whatever else the mount serves.
 */
import type { RegisteredTool } from '@modelcontextprotocol/server';

/** Leaves a server holding no tool that answers `tools/list` and `tools/call` as one that holds some would. */
export function answerAsToolless(register: () => RegisteredTool): void {
  register().remove();
}
