/** Reading the conformance suite's console summary (the CLI has no machine-readable output for a whole run). */

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
}

/**
 * Reads the suite's summary: `✓ name: 2 passed, 0 failed` lines, and the names it lists as not scored.
 * `scoredHere`: scenarios the suite does not score that this project scores all the same (the tasks
 * extension's, which the suite leaves unscored only because its reference server implements none).
 */
export function parseSummary(
  output: string,
  scoredHere: readonly string[] = [],
): { results: ScenarioResult[]; notScored: string[] } {
  const summary = output.split('=== SUMMARY ===')[1] ?? '';
  const [scoredPart = '', notScoredPart = ''] = summary.split(/^Not scored for .*$/m);
  const results = [...scoredPart.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed/gm)].map((m) => ({
    scenario: m[1]!,
    passed: Number(m[2]),
    failed: Number(m[3]),
  }));
  const listed = [...notScoredPart.matchAll(/^\s+[✓✗] (\S+) \(/gm)].map((m) => m[1]!);
  const notScored = listed.filter((name) => !scoredHere.includes(name));
  return { results: results.filter((r) => !notScored.includes(r.scenario)), notScored };
}
