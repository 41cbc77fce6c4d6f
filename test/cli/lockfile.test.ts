/**
 * The schema lockfile: `writeSchemaLock` gives stable bytes for the served documents, and `diffSchemaLock`
 * names every drift by tool and JSON Pointer with old → new values.
 */
import { defineTool, type ServedTool, type ValidationReport } from 'mcp-mount';
import { diffSchemaLock, writeSchemaLock } from 'mcp-mount/lockfile';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const report = (...tools: ServedTool[]): ValidationReport => ({
  ok: true,
  issues: [],
  tools,
  projection: 'faithful',
  projections: { faithful: { ok: true, issues: [], tools } },
});
const tool = (name: string, inputSchema: Record<string, unknown>, extra: Partial<ServedTool> = {}): ServedTool => ({
  name,
  inputSchema,
  ...extra,
});
const search = tool('search', {
  type: 'object',
  properties: { q: { type: 'string', minLength: 1 }, limit: { type: 'integer', maximum: 50 } },
  required: ['q'],
});

describe('writeSchemaLock', () => {
  it('writes a versioned header, the options that shape documents, and 2-space JSON with a trailing newline', () => {
    const text = writeSchemaLock(report(search), {
      flattenUnionInput: true,
      arguments: { extend: { schema: z.object({ tenantId: z.string(), region: z.string() }) } },
    });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "lockfileVersion": 2,\n');
    const lock = JSON.parse(text);
    expect(Object.keys(lock)).toEqual(['lockfileVersion', 'options', 'projections']);
    expect(lock.options).toEqual({ projection: 'flat', extendKeys: ['tenantId', 'region'] });
    expect(writeSchemaLock(report(search))).toContain('"projection": "faithful",\n    "extendKeys": []');
    expect(writeSchemaLock(report(search), { projection: 'auto' })).toContain('"projection": "auto"');
    expect(writeSchemaLock(report(search), { projection: () => 'cursor' })).toContain('"projection": "function"');
  });

  it('keeps the tools/list key order per tool and sorts keys inside documents, so key order never shows as drift', () => {
    const a = tool(
      't',
      { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } },
      {
        annotations: { readOnlyHint: true, idempotentHint: false },
        description: 'd',
        title: 'T',
        outputSchema: { type: 'object' },
      },
    );
    const b = tool(
      't',
      { properties: { a: { type: 'number' }, b: { type: 'string' } }, type: 'object' },
      {
        outputSchema: { type: 'object' },
        title: 'T',
        description: 'd',
        annotations: { idempotentHint: false, readOnlyHint: true },
      },
    );
    const text = writeSchemaLock(report(a));
    expect(writeSchemaLock(report(b))).toBe(text);
    const written = JSON.parse(text).projections.faithful.tools[0];
    expect(Object.keys(written)).toEqual([
      'name',
      'title',
      'description',
      'inputSchema',
      'outputSchema',
      'annotations',
    ]);
    expect(Object.keys(written.inputSchema)).toEqual(['properties', 'type']);
    expect(Object.keys(written.inputSchema.properties)).toEqual(['a', 'b']);
    expect(Object.keys(written.annotations)).toEqual(['idempotentHint', 'readOnlyHint']);
  });

  it('keeps arrays in order and property names such as __proto__ as data', () => {
    const t = tool(
      't',
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["z","a"]}'),
    );
    const written = JSON.parse(writeSchemaLock(report(t))).projections.faithful.tools[0].inputSchema;
    expect(Object.hasOwn(written.properties, '__proto__')).toBe(true);
    expect(written.required).toEqual(['z', 'a']);
  });

  it('writes the documents of a real probe report (defineTool through validateMcpSchemas)', async () => {
    const { validateMcpSchemas } = await import('mcp-mount');
    const t = defineTool({ name: 'x', input: z.object({ n: z.number() }), handler: () => 1 });
    const lock = JSON.parse(writeSchemaLock(validateMcpSchemas([t])));
    expect(lock.projections).toEqual({
      faithful: { tools: [{ name: 'x', inputSchema: validateMcpSchemas([t]).tools[0]!.inputSchema }] },
    });
  });
});

describe('diffSchemaLock', () => {
  const lockOf = (...tools: ServedTool[]) => writeSchemaLock(report(...tools));

  it('the same documents: ok, no changes, a one-line text', () => {
    const diff = diffSchemaLock(lockOf(search), report(search));
    expect(diff).toEqual({ ok: true, changes: [], text: 'schema lock matches: 1 tool, no changes' });
  });

  it('changed, added and removed keys at any depth, with pointers into the tool document', () => {
    const now = tool('search', {
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'integer', maximum: 100 }, sort: { enum: ['asc', 'desc'] } },
      required: ['q'],
    });
    const diff = diffSchemaLock(lockOf(search), report(now));
    expect(diff.ok).toBe(false);
    expect(diff.changes).toEqual([
      {
        kind: 'changed',
        projection: 'faithful',
        tool: 'search',
        pointer: '/inputSchema/properties/limit/maximum',
        before: 50,
        after: 100,
      },
      {
        kind: 'removed',
        projection: 'faithful',
        tool: 'search',
        pointer: '/inputSchema/properties/q/minLength',
        before: 1,
      },
      {
        kind: 'added',
        projection: 'faithful',
        tool: 'search',
        pointer: '/inputSchema/properties/sort',
        after: { enum: ['asc', 'desc'] },
      },
    ]);
    expect(diff.text).toBe(
      [
        'schema lock drift: 3 changes',
        '  search',
        '    ~ /inputSchema/properties/limit/maximum: 50 → 100',
        '    - /inputSchema/properties/q/minLength: 1',
        '    + /inputSchema/properties/sort: {"enum":["asc","desc"]}',
      ].join('\n'),
    );
  });

  it('escapes pointer tokens (RFC 6901) and reads own keys only (`constructor` is a property like any other)', () => {
    const before = tool('t', { properties: { 'a/b': { type: 'string' }, 'm~n': { type: 'string' } } });
    const after = tool('t', { properties: { 'a/b': { type: 'number' }, constructor: { type: 'string' } } });
    expect(
      diffSchemaLock(lockOf(before), report(after)).changes.map((c) => [c.kind, 'pointer' in c && c.pointer]),
    ).toEqual([
      ['changed', '/inputSchema/properties/a~1b/type'],
      ['added', '/inputSchema/properties/constructor'],
      ['removed', '/inputSchema/properties/m~0n'],
    ]);
  });

  it('arrays of scalars (`required`, `enum`, `type`) change whole; arrays of schemas by index', () => {
    const before = tool('t', { required: ['a', 'b'], anyOf: [{ type: 'string' }, { type: 'number' }], type: 'object' });
    const after = tool('t', {
      required: ['b'],
      anyOf: [{ type: 'string', maxLength: 3 }, { type: 'number' }, { type: 'null' }],
      type: ['object', 'null'],
    });
    expect(diffSchemaLock(lockOf(before), report(after)).changes).toEqual([
      { kind: 'added', projection: 'faithful', tool: 't', pointer: '/inputSchema/anyOf/0/maxLength', after: 3 },
      { kind: 'added', projection: 'faithful', tool: 't', pointer: '/inputSchema/anyOf/2', after: { type: 'null' } },
      {
        kind: 'changed',
        projection: 'faithful',
        tool: 't',
        pointer: '/inputSchema/required',
        before: ['a', 'b'],
        after: ['b'],
      },
      {
        kind: 'changed',
        projection: 'faithful',
        tool: 't',
        pointer: '/inputSchema/type',
        before: 'object',
        after: ['object', 'null'],
      },
    ]);
    const shorter = tool('t', { required: ['a', 'b'], anyOf: [{ type: 'string' }], type: 'object' });
    expect(diffSchemaLock(lockOf(before), report(shorter)).changes).toEqual([
      {
        kind: 'removed',
        projection: 'faithful',
        tool: 't',
        pointer: '/inputSchema/anyOf/1',
        before: { type: 'number' },
      },
    ]);
  });

  it('a value that changes kind (object ↔ scalar ↔ array) is one change at its pointer', () => {
    const before = tool('t', { properties: { a: { type: 'string' } }, additionalProperties: false });
    const after = tool('t', { properties: { a: [] }, additionalProperties: { type: 'string' } });
    expect(diffSchemaLock(lockOf(before), report(after)).changes).toEqual([
      {
        kind: 'changed',
        projection: 'faithful',
        tool: 't',
        pointer: '/inputSchema/additionalProperties',
        before: false,
        after: { type: 'string' },
      },
      {
        kind: 'changed',
        projection: 'faithful',
        tool: 't',
        pointer: '/inputSchema/properties/a',
        before: { type: 'string' },
        after: [],
      },
    ]);
  });

  it('title, description, outputSchema and annotations are part of the document', () => {
    const before = tool('t', {}, { description: 'old', annotations: { readOnlyHint: true } });
    const after = tool('t', {}, { title: 'T', description: 'new', outputSchema: { type: 'object' } });
    const diff = diffSchemaLock(lockOf(before), report(after));
    expect(diff.changes).toEqual([
      { kind: 'removed', projection: 'faithful', tool: 't', pointer: '/annotations', before: { readOnlyHint: true } },
      { kind: 'changed', projection: 'faithful', tool: 't', pointer: '/description', before: 'old', after: 'new' },
      { kind: 'added', projection: 'faithful', tool: 't', pointer: '/outputSchema', after: { type: 'object' } },
      { kind: 'added', projection: 'faithful', tool: 't', pointer: '/title', after: 'T' },
    ]);
  });

  it('added and removed tools by name, options changes first; tool order is not drift', () => {
    const other = tool('other', { type: 'object' });
    const added = tool('added', { type: 'object' });
    const diff = diffSchemaLock(lockOf(search, other), report(added, search), { flattenUnionInput: true });
    expect(diff.changes).toEqual([
      { kind: 'option-changed', option: 'projection', before: 'faithful', after: 'flat' },
      { kind: 'tool-removed', projection: 'faithful', tool: 'other' },
      { kind: 'tool-added', projection: 'faithful', tool: 'added' },
    ]);
    expect(diff.text).toBe(
      [
        'schema lock drift: 3 changes',
        '  options',
        '    ~ projection: "faithful" → "flat"',
        '  + added: tool added (not in the lockfile)',
        '  - other: tool removed (in the lockfile, no longer served)',
      ].join('\n'),
    );
    expect(diffSchemaLock(lockOf(search, other), report(other, search)).ok).toBe(true);
  });

  it('extend keys are recorded and compared', () => {
    const lock = writeSchemaLock(report(search), {
      arguments: { extend: { schema: z.object({ tenantId: z.string() }) } },
    });
    expect(diffSchemaLock(lock, report(search)).changes).toEqual([
      { kind: 'option-changed', option: 'extendKeys', before: ['tenantId'], after: [] },
    ]);
  });

  it('long values are cut in the text, never in `changes`', () => {
    const long = 'x'.repeat(300);
    const diff = diffSchemaLock(
      lockOf(tool('t', {}, { description: 'short' })),
      report(tool('t', {}, { description: long })),
    );
    expect(diff.changes[0]).toMatchObject({ after: long });
    expect(diff.text).toContain(`→ "${'x'.repeat(96)}...`);
    expect(diff.text.split('\n')[2]!.length).toBeLessThan(160);
  });

  it('refuses text that is not a lockfile of this version, with the reason', () => {
    expect(() => diffSchemaLock('{', report())).toThrow(/not a schema lockfile: invalid JSON/);
    expect(() => diffSchemaLock('[]', report())).toThrow(/expected a JSON object/);
    expect(() => diffSchemaLock('{"lockfileVersion":3,"projections":{}}', report())).toThrow(
      /unsupported lockfileVersion 3/,
    );
    expect(() => diffSchemaLock('{"lockfileVersion":2,"projections":[]}', report())).toThrow(/`projections` must be/);
    expect(() => diffSchemaLock('{"lockfileVersion":2,"projections":{"flat":{"tools":[{}]}}}', report())).toThrow(
      /`projections.flat.tools` must be an array of tool documents with a `name`/,
    );
  });

  it('a version-1 lockfile (one document per tool) is refused with "regenerate", never diffed', () => {
    const v1 = JSON.stringify({
      lockfileVersion: 1,
      options: { flattenUnionInput: false, extendKeys: [] },
      tools: [search],
    });
    expect(() => diffSchemaLock(v1, report(search))).toThrow(
      /lockfileVersion 1 is the format of an older mcp-mount .*regenerate the file with --write/,
    );
  });
});

describe('several projections', () => {
  const flat = tool(
    'search',
    { type: 'object', properties: { q: { type: ['string', 'null'] } } },
    { description: 'd' },
  );
  const cursor = tool('search', { type: 'object', properties: { q: { type: 'string' } } }, { description: 'd' });
  const other = tool('ping', { type: 'object' });
  const served = (projections: Record<string, ServedTool[]>): ValidationReport => {
    const [first] = Object.keys(projections) as ['flat'];
    return {
      ok: true,
      issues: [],
      tools: projections[first]!,
      projection: first,
      projections: Object.fromEntries(
        Object.entries(projections).map(([name, tools]) => [name, { ok: true, issues: [], tools }]),
      ),
    };
  };

  it('records each served projection, in the mount order, as the tools/list its clients get', () => {
    const lock = JSON.parse(
      writeSchemaLock(served({ flat: [flat, other], cursor: [cursor, other] }), { projection: 'auto' }),
    );
    expect(Object.keys(lock.projections)).toEqual(['flat', 'cursor']);
    expect(lock.projections.flat.tools).toEqual([flat, other]);
    expect(lock.projections.cursor.tools).toEqual([cursor, other]);
    expect(lock.options).toEqual({ projection: 'auto', extendKeys: [] });
  });

  it('drift in one projection names the tool, the projection and the pointer', () => {
    const lock = writeSchemaLock(served({ flat: [flat], cursor: [cursor] }), { projection: 'auto' });
    const drifted = tool(
      'search',
      { type: 'object', properties: { q: { type: 'string', maxLength: 9 } } },
      {
        description: 'd',
      },
    );
    const diff = diffSchemaLock(lock, served({ flat: [flat], cursor: [drifted] }), { projection: 'auto' });
    expect(diff.changes).toEqual([
      { kind: 'added', projection: 'cursor', tool: 'search', pointer: '/inputSchema/properties/q/maxLength', after: 9 },
    ]);
    expect(diff.text).toBe(
      ['schema lock drift: 1 change', '  search (cursor)', '    + /inputSchema/properties/q/maxLength: 9'].join('\n'),
    );
  });

  it('a change made in every projection is listed per projection but shown once', () => {
    const lock = writeSchemaLock(served({ flat: [flat], cursor: [cursor] }), { projection: 'auto' });
    const now = served({ flat: [{ ...flat, description: 'new' }], cursor: [{ ...cursor, description: 'new' }] });
    const diff = diffSchemaLock(lock, now, { projection: 'auto' });
    expect(diff.changes.map((c) => 'projection' in c && c.projection)).toEqual(['flat', 'cursor']);
    expect(diff.text).toBe(
      ['schema lock drift: 2 changes', '  search (every projection)', '    ~ /description: "d" → "new"'].join('\n'),
    );
  });

  it('projections added and removed are named once, without their tools; order is not drift', () => {
    const lock = writeSchemaLock(served({ flat: [flat], cursor: [cursor] }), { projection: 'auto' });
    const diff = diffSchemaLock(lock, served({ flat: [flat], gemini: [flat] }), { projection: 'auto' });
    expect(diff.changes).toEqual([
      { kind: 'projection-removed', projection: 'cursor' },
      { kind: 'projection-added', projection: 'gemini' },
    ]);
    expect(diff.text).toBe(
      [
        'schema lock drift: 2 changes',
        '  - projection cursor: in the lockfile, no longer served',
        '  + projection gemini: served now, not in the lockfile',
      ].join('\n'),
    );
    expect(diffSchemaLock(lock, served({ cursor: [cursor], flat: [flat] }), { projection: 'auto' }).ok).toBe(true);
  });

  it("a real 'auto' mount: every served projection is recorded with exactly the probe's documents", async () => {
    const { validateMcpSchemas } = await import('mcp-mount');
    const t = defineTool({ name: 'x', input: z.object({ n: z.number().nullable().optional() }), handler: () => 1 });
    const probe = validateMcpSchemas([t], { projection: 'auto' });
    const lock = JSON.parse(writeSchemaLock(probe, { projection: 'auto' }));
    expect(Object.keys(lock.projections)).toEqual(Object.keys(probe.projections));
    for (const [name, p] of Object.entries(probe.projections)) {
      expect(lock.projections[name].tools, name).toEqual(JSON.parse(JSON.stringify(p!.tools)));
    }
    expect(diffSchemaLock(writeSchemaLock(probe, { projection: 'auto' }), probe, { projection: 'auto' }).ok).toBe(true);
  });
});

describe('a lockfile naming __proto__', () => {
  it('reads it as a projection key, never as the prototype, and the diff names it as removed', () => {
    const text = JSON.stringify({
      lockfileVersion: 2,
      options: { projection: 'faithful', extendKeys: [] },
      projections: JSON.parse('{"__proto__": {"tools": []}, "faithful": {"tools": []}}'),
    });
    const diff = diffSchemaLock(text, report());
    expect(diff.changes).toContainEqual({ kind: 'projection-removed', projection: '__proto__' });
    expect(({} as Record<string, unknown>).tools).toBeUndefined();
  });
});
