import { describe, expect, it } from 'vitest';
import { checkToolNames } from '../../../src/core/probe/index.js';

const codes = (names: string[]) => checkToolNames(names).map((i) => `${i.code}:${i.tool}`);

describe('tool names (SEP-986: 1..64 of [A-Za-z0-9_-])', () => {
  it('a slash is invalid, and the issue names the tool', () => {
    const [issue, ...rest] = checkToolNames(['overview_admin/analytics', 'fine']);
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({
      tool: 'overview_admin/analytics',
      path: '',
      code: 'invalid-tool-name',
      severity: 'error',
      side: 'name',
    });
    expect(issue!.message).toContain('"overview_admin/analytics"');
    expect(issue!.message).toContain('"/"');
  });

  it('a dot is invalid', () => {
    expect(codes(['notes.get'])).toEqual(['invalid-tool-name:notes.get']);
  });

  it('65 characters is invalid, 64 passes', () => {
    const long = 'a'.repeat(65);
    expect(codes([long, 'b'.repeat(64)])).toEqual([`invalid-tool-name:${long}`]);
    expect(checkToolNames([long])[0]!.message).toMatch(/65 characters/);
  });

  it('empty, only slashes, and non-ASCII names are each invalid, and nothing crashes', () => {
    expect(codes(['', '///', 'поиск', 'a/b'])).toEqual([
      'invalid-tool-name:',
      'invalid-tool-name:///',
      'invalid-tool-name:поиск',
      'invalid-tool-name:a/b',
    ]);
    expect(checkToolNames([''])[0]!.message).toMatch(/empty/);
  });

  it('valid names pass as given, hyphens included', () => {
    expect(checkToolNames(['get_bot_status', 'get-user_note', 'A1', '_', '-'])).toEqual([]);
  });

  it('a duplicate name is one issue naming it', () => {
    const issues = checkToolNames(['list_items', 'other', 'list_items']);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      tool: 'list_items',
      code: 'duplicate-tool-name',
      severity: 'error',
      side: 'name',
    });
    expect(issues[0]!.message).toContain('"list_items"');
    expect(issues[0]!.message).toContain('2 tools');
  });

  it('every bad name is reported at once, one issue per offender', () => {
    expect(codes(['notes.get', 'dup', 'dup', 'ok'])).toEqual([
      'invalid-tool-name:notes.get',
      'duplicate-tool-name:dup',
    ]);
    // An invalid name used twice is reported once as invalid and once as duplicated.
    expect(codes(['a/b', 'a/b'])).toEqual(['invalid-tool-name:a/b', 'duplicate-tool-name:a/b']);
  });
});

describe('names that collide with Object.prototype', () => {
  it('are refused: the SDK registers tools in a plain object, and these would fail every request', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
    const issues = checkToolNames([...names, 'ok_tool']);
    expect(issues.map((i) => [i.tool, i.code])).toEqual(names.map((n) => [n, 'invalid-tool-name']));
    expect(issues[0]!.message).toMatch(/built-in property name/);
  });
});
