import { requireScopes } from '@modelcontextprotocol/server';
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkToolScopes } from '../../../src/core/probe/index.js';

const paths = (scopes: unknown) => checkToolScopes('t', scopes).issues.map((i) => `${i.code}@${i.path}`);

describe('checkToolScopes: a tool that names scopes', () => {
  it('settles the three forms, frozen, with nothing to report', () => {
    expect(checkToolScopes('t', ['a', 'b'])).toEqual({ scopes: { anyOf: false, names: ['a', 'b'] }, issues: [] });
    expect(checkToolScopes('t', { allOf: ['a'] })).toEqual({ scopes: { anyOf: false, names: ['a'] }, issues: [] });
    expect(checkToolScopes('t', { anyOf: ['a', 'b'] })).toEqual({
      scopes: { anyOf: true, names: ['a', 'b'] },
      issues: [],
    });
    const { scopes } = checkToolScopes('t', ['a']);
    expect(Object.isFrozen(scopes) && Object.isFrozen(scopes!.names)).toBe(true);
    expect(checkToolScopes('t', undefined)).toEqual({ issues: [] });
  });

  it('a wrong form is one invalid-scopes error at /scopes, naming the tool and the three forms', () => {
    for (const scopes of ['notes:write', { oneOf: ['a'] }, { allOf: ['a'], anyOf: ['b'] }, null, 7]) {
      const { scopes: settled, issues } = checkToolScopes('archive', scopes);
      expect(settled, JSON.stringify(scopes)).toBeUndefined();
      expect(issues).toEqual([
        {
          tool: 'archive',
          path: '/scopes',
          code: 'invalid-scopes',
          severity: 'error',
          side: 'tool',
          message: expect.stringMatching(/^tool "archive": scopes must be a non-empty list of scopes, \{ allOf/),
        },
      ]);
    }
  });

  it('an empty list, or a list that is not an array, is one error where the list sits', () => {
    expect(paths([])).toEqual(['invalid-scopes@/scopes']);
    expect(paths({ anyOf: [] })).toEqual(['invalid-scopes@/scopes/anyOf']);
    expect(paths({ allOf: 'a' })).toEqual(['invalid-scopes@/scopes/allOf']);
    expect(checkToolScopes('t', []).issues[0]!.message).toContain('scopes is empty');
  });

  it('each scope outside the OAuth grammar is its own error, naming the scope, all at once', () => {
    const { issues } = checkToolScopes('archive', { anyOf: ['ok', 'has space', 'quote"', 42, ''] });
    expect(issues.map((i) => i.path)).toEqual([
      '/scopes/anyOf/1',
      '/scopes/anyOf/2',
      '/scopes/anyOf/3',
      '/scopes/anyOf/4',
    ]);
    expect(issues[0]!.message).toMatch(/^tool "archive": scope "has space" is outside the OAuth scope-token grammar/);
    expect(issues[1]!.message).toContain('scope "quote\\""');
    expect(issues[2]!.message).toBe('tool "archive": scope 3 is 42, not a string');
  });

  it('a space-separated claim written as one scope gets the list it meant', () => {
    const [issue] = checkToolScopes('t', ['notes:read notes:write']).issues;
    expect(issue!.message).toContain('list each scope on its own, e.g. ["notes:read","notes:write"]');
  });

  it("accepts exactly the scopes the SDK's requireScopes accepts", () => {
    const samples = ['a', 'notes:write', 'https://x.example/s', '~!#$%', 'a b', 'a\\b', 'a"b', '', 'é', '\t', 'x\n'];
    for (const scope of samples) {
      let sdk = true;
      try {
        requireScopes(scope);
      } catch {
        sdk = false;
      }
      expect(checkToolScopes('t', [scope]).issues.length === 0, JSON.stringify(scope)).toBe(sdk);
    }
  });
});

describe('validateMcpSchemas and scopes', () => {
  const tool = (name: string, scopes: unknown) =>
    defineTool({ name, scopes: scopes as never, input: z.object({ id: z.string() }), handler: () => 'x' });

  it('reports invalid scopes as an error at the tool, and does not serve that tool', () => {
    const report = validateMcpSchemas([tool('bad', ['has space']), tool('plain', undefined)], {
      access: { auth: { verify: () => undefined } },
    });
    expect(report.ok).toBe(false);
    expect(report.issues.map((i) => `${i.tool} ${i.code}@${i.path}`)).toEqual(['bad invalid-scopes@/scopes/0']);
    expect(report.tools.map((t) => t.name)).toEqual(['plain']);
  });

  it('warns about a scoped tool on a mount without auth, naming the tool and the upstream way in', () => {
    const report = validateMcpSchemas([tool('archive_note', ['notes:write']), tool('plain', undefined)]);
    expect(report.ok).toBe(true);
    expect(report.issues).toEqual([
      {
        tool: 'archive_note',
        path: '/scopes',
        code: 'scopes-without-auth',
        severity: 'warning',
        side: 'tool',
        message: expect.stringContaining('tool "archive_note" has scopes, but the mount has no auth option'),
      },
    ]);
    expect(report.issues[0]!.message).toContain("Express's req.auth");
    expect(report.tools.map((t) => t.name)).toEqual(['archive_note', 'plain']);
  });

  it('does not warn when the options carry auth', () => {
    const report = validateMcpSchemas([tool('archive_note', { anyOf: ['a', 'b'] })], {
      access: { auth: { verify: () => undefined } },
    });
    expect(report.issues).toEqual([]);
  });
});
