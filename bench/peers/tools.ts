/**
 * What the peer benchmark serves and sends, shared by the servers (servers.ts) and the load generator
 * (load.ts): 50 tools of bench/fixtures/object-union-tools.ts (an object root holding a discriminated union of
 * 4 to 8 variants, which every server here lists, mcp-mount's default `faithful` projection included), the
 * calls, and the answer every server gives a call.
 */
import { callArguments } from '../fixtures/object-union-tools.js';

/** How many tools every server serves. */
export const TOOLS = 50;

/** The tool every call names: the last one, as the other benchmarks call. */
export const CALLED = `tool_${TOOLS - 1}`;

/** What each tool's handler returns, every server alike: the parsed values, so a repair shows in the answer. */
export function answer(input: unknown) {
  const { requestId, action } = input as { requestId: string; action: { type: string; amount?: unknown } };
  return { ok: true, requestId, type: action.type, amount: action.amount };
}

/** The text of a valid call's answer, and of a repaired call's once repaired. */
export const EXPECTED_TEXT = JSON.stringify(answer(callArguments));

/** The arguments of each kind of call. */
export const CALL_ARGUMENTS = {
  /** Valid: every server runs the handler. */
  valid: callArguments,
  /** A number sent as text (`"5"`), as weaker models send it: mcp-mount repairs it; a server without repair refuses it. */
  repair: { ...callArguments, action: { ...callArguments.action, amount: '5' } },
  /** A wrong type two levels down (`action.target` a number): every server must refuse it. */
  invalid: { ...callArguments, action: { ...callArguments.action, target: 7 } },
};
