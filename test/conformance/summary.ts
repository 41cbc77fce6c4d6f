/** Reading the conformance suite's console summary (the CLI has no machine-readable output for a whole run). */

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
}

/** Reads the suite's summary: `✓ name: 2 passed, 0 failed` lines, and the names it lists as not scored. */
export function parseSummary(output: string): { results: ScenarioResult[]; notScored: string[] } {
  const summary = output.split('=== SUMMARY ===')[1] ?? '';
  const [scoredPart = '', notScoredPart = ''] = summary.split(/^Not scored for .*$/m);
  const results = [...scoredPart.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed/gm)].map((m) => ({
    scenario: m[1]!,
    passed: Number(m[2]),
    failed: Number(m[3]),
  }));
  const notScored = [...notScoredPart.matchAll(/^\s+[✓✗] (\S+) \(/gm)].map((m) => m[1]!);
  return { results: results.filter((r) => !notScored.includes(r.scenario)), notScored };
}
