/**
 * The issue-code table of docs/design/probe.md against the code: one row per `SCHEMA_ISSUE_CODES` entry,
 * each rule's severity as the rule declares it, and the always-fatal codes as the policy applies them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FATAL_UNDER_EVERY_POLICY } from '../../../src/core/prepare/policy.js';
import { BASE_RULES } from '../../../src/core/probe/base-rules.js';
import { PROFILES } from '../../../src/core/probe/index.js';
import { SCHEMA_ISSUE_CODES } from '../../../src/core/probe/issue.js';
import { optionRules } from '../../../src/core/probe/option-rules.js';

const doc = readFileSync(new URL('../../../docs/design/probe.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('\n## Issue codes\n'));
const rows = section
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => {
    const [code, severity, onThrow, onWarn, onSkip, fix] = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    return { code: code!.replaceAll('`', ''), severity, onThrow, onWarn, onSkip, fix };
  });
const byCode = new Map(rows.map((r) => [r.code, r]));

describe('the issue-code table of docs/design/probe.md', () => {
  it('has one row per code the probe emits, and no other', () => {
    expect(rows.map((r) => r.code).sort()).toEqual([...SCHEMA_ISSUE_CODES].sort());
  });

  it("gives each rule's own severity", () => {
    const rules = [
      ...BASE_RULES,
      ...optionRules({ requireTypedProperties: true, requirePortableFormats: true }),
      ...Object.values(PROFILES).flatMap((p) => p.rules),
    ];
    for (const rule of rules) expect(byCode.get(rule.id)?.severity, rule.id).toBe(rule.severity);
  });

  it("says an error fails the mount under 'throw', and under 'warn' and 'skip' exactly the always-fatal codes do", () => {
    for (const r of rows) {
      expect(r.onThrow?.startsWith('fails'), r.code).toBe(r.severity === 'error');
      expect(r.onWarn === 'fails', r.code).toBe(FATAL_UNDER_EVERY_POLICY.has(r.code as never));
      expect(r.onSkip, r.code).toBe(r.onWarn);
      expect(r.fix, r.code).toMatch(/\S/);
    }
  });
});
