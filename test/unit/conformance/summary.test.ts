/** The conformance runner judges what the suite's summary says: scored scenarios only, with their counts. */
import { describe, expect, it } from 'vitest';
import { parseSummary } from '../../conformance/summary.js';

// The shape of the suite's output (0.2.0-alpha, `--requirements`), cut down.
const output = `=== Running scenario: ping ===
✗ not a summary line: 1 passed, 1 failed

=== SUMMARY ===
✗ server-stateless: 24 passed, 4 failed
✓ server-sse-multiple-streams: 0 passed, 0 failed
✗ tasks-lifecycle: 1 passed, 8 failed
✗ json-schema-2020-12: 1 passed, 1 failed

Total: 26 passed, 13 failed

Not scored for 2026-07-28: 2 scenario(s) run, 2 failing. These do not affect conformance.
  ✗ tasks-lifecycle (extension)
  ✗ json-schema-2020-12 (pending)
`;

describe('parseSummary', () => {
  it('reads the summary block only, and leaves out what the suite does not score', () => {
    expect(parseSummary(output)).toEqual({
      results: [
        { scenario: 'server-stateless', passed: 24, failed: 4 },
        { scenario: 'server-sse-multiple-streams', passed: 0, failed: 0 },
      ],
      notScored: ['tasks-lifecycle', 'json-schema-2020-12'],
    });
  });

  it('keeps a scenario the suite does not score when this project scores it, with its counts', () => {
    expect(parseSummary(output, ['tasks-lifecycle'])).toEqual({
      results: [
        { scenario: 'server-stateless', passed: 24, failed: 4 },
        { scenario: 'server-sse-multiple-streams', passed: 0, failed: 0 },
        { scenario: 'tasks-lifecycle', passed: 1, failed: 8 },
      ],
      notScored: ['json-schema-2020-12'],
    });
  });

  it('finds nothing in output without a summary (a crashed run), which the runner counts as a failure', () => {
    expect(parseSummary('Error: connect ECONNREFUSED 127.0.0.1:1').results).toEqual([]);
  });
});
