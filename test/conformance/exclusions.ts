/**
 * Conformance scenarios that may fail, each with why. Everything else the suite scores must pass on every
 * adapter, and an entry here whose scenario passes fails the run too (remove it then). Keep it short: an
 * entry is either something stateless serving cannot do, or work that another change will land.
 */

/** `2025-11-25`: the stable suite's 2025-era scenarios; `2026-07-28`: the revision's required set (alpha). */
export type Leg = '2025-11-25' | '2026-07-28';

export interface Exclusion {
  leg: Leg;
  scenario: string;
  reason: string;
  /** The adapters (as run.ts names them) it applies to; left out: every adapter. */
  adapters?: readonly string[];
}

// Sent from a tool in the 2025 era, a server-to-client request (sampling, elicitation) needs a session:
// stateless serving answers each POST with a fresh server, so the client's answer reaches one that never
// asked. The same tools answer 2026-07-28 clients with an input_required result, which passes.
const SERVER_TO_CLIENT =
  'stateless 2025-era serving cannot receive the answer to a server-to-client request (the 2026-07-28 input_required flow passes)';

// Subscriptions need somewhere to send notifications/resources/updated later: a 2025-era session, which
// stateless serving does not keep (2026-07-28 has subscriptions/listen instead).
const SUBSCRIPTIONS = 'stateless 2025-era serving keeps no session to send resource updates on';

export const exclusions: readonly Exclusion[] = [
  { leg: '2025-11-25', scenario: 'tools-call-sampling', reason: SERVER_TO_CLIENT },
  { leg: '2025-11-25', scenario: 'tools-call-elicitation', reason: SERVER_TO_CLIENT },
  { leg: '2025-11-25', scenario: 'elicitation-sep1034-defaults', reason: SERVER_TO_CLIENT },
  { leg: '2025-11-25', scenario: 'elicitation-sep1330-enums', reason: SERVER_TO_CLIENT },
  { leg: '2025-11-25', scenario: 'resources-subscribe', reason: SUBSCRIPTIONS },
  { leg: '2025-11-25', scenario: 'resources-unsubscribe', reason: SUBSCRIPTIONS },
];
