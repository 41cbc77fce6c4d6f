/** formatIssues / formatPath: one actionable line per failing path. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssues } from '../../../src/core/messages/index.js';
import { formatPath } from '../../../src/core/messages/path.js';

function lines(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a failure');
  return formatIssues(r.error, schema, value);
}

describe('formatPath', () => {
  it.each([
    [[], ''],
    [['media'], 'media'],
    [['media', 0, 'url'], 'media[0].url'],
    [[0, 'a'], '[0].a'],
    [['a.b', 'c d', '', 'x-y', '0'], '["a.b"]["c d"][""].x-y["0"]'],
    [['_as_extra', '$ref'], '_as_extra.$ref'],
  ] as const)('%j → %s', (path, shown) => {
    expect(formatPath(path)).toBe(shown);
  });
});

describe('formatIssues', () => {
  it('names the path, the expected type and what was received', () => {
    expect(lines(z.object({ media: z.array(z.object({ url: z.string() })) }), { media: [{ url: 5 }] })).toEqual([
      'media[0].url: expected string, received number',
    ]);
  });

  it('a number that is not finite is named by its value, never "received number"', () => {
    // JSON text 1e400 parses to Infinity; JSON.stringify would have shown it as null.
    const schema = z.object({
      a: z.number(),
      b: z.int(),
      k: z.enum(['x', 'y']),
      l: z.literal(3),
      u: z.union([z.number(), z.boolean()]),
    });
    const sent = JSON.parse('{"a":1e400,"b":-1e400,"k":1e400,"l":-1e400,"u":1e400}');
    expect(sent.a).toBe(Number.POSITIVE_INFINITY);
    expect(lines(schema, sent)).toEqual([
      'a: expected number, received Infinity',
      'b: expected number, received -Infinity',
      'k: expected one of "x" | "y", received Infinity',
      'l: expected 3, received -Infinity',
      'u: expected number | boolean, received Infinity',
    ]);
    expect(lines(z.object({ n: z.number() }), { n: Number.NaN })).toEqual(['n: expected number, received NaN']);
    // Without the value, from Zod's own issue (-Infinity included).
    const r = schema.safeParse(sent);
    expect(formatIssues(r.error!)[1]).toBe('b: expected number, received -Infinity');
  });

  it('a missing key reads required', () => {
    expect(lines(z.object({ q: z.string() }), {})).toEqual(['q: required, expected string']);
  });

  it('the root is shown as (root)', () => {
    expect(lines(z.object({ q: z.string() }), 'text')).toEqual(['(root): expected object, received string']);
  });

  it('names every unknown key in one line', () => {
    expect(lines(z.object({ guid: z.string() }).strict(), { guid: 'G', tool: 'F', toolCallId: 'c' })).toEqual([
      'tool, toolCallId: unrecognized keys',
    ]);
    expect(lines(z.object({ o: z.strictObject({ q: z.string() }) }), { o: { q: 'q', _as_extra: {} } })).toEqual([
      'o._as_extra: unrecognized key',
    ]);
  });

  const du = z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal(['append', 'add']),
      path: z.string(),
      content: z.string(),
      mode: z.string().optional(),
    }),
    z.object({ kind: z.literal('remove'), path: z.string() }),
  ]);

  it('an unknown or missing tag lists the valid ones and what each requires', () => {
    const needs = '(append | add require path, content; remove requires path)';
    expect(lines(du, { kind: 'z' })).toEqual([
      `kind: expected one of "append" | "add" | "remove", received "z" ${needs}`,
    ]);
    expect(lines(du, {})).toEqual([`kind: required, expected one of "append" | "add" | "remove" ${needs}`]);
  });

  it('inside a variant, names the fields the chosen tag requires', () => {
    expect(lines(du, { kind: 'append', path: 'p' })).toEqual([
      'content: required, expected string (kind = append requires path, content)',
    ]);
    expect(
      lines(z.object({ ops: z.array(du) }), {
        ops: [
          { kind: 'remove', path: 'x' },
          { kind: 'add', content: 1 },
        ],
      }),
    ).toEqual([
      'ops[1].path: required, expected string (kind = add requires path, content)',
      'ops[1].content: expected string, received number (kind = add requires path, content)',
    ]);
  });

  it('tags other than strings are written as JSON, and a string that reads as one is quoted: "1" is not 1', () => {
    const tagged = z.discriminatedUnion('k', [
      z.object({ k: z.literal('1'), s: z.string() }),
      z.object({ k: z.literal(1), n: z.number() }),
      z.object({ k: z.literal(true), b: z.boolean() }),
      z.object({ k: z.null(), z: z.string() }),
    ]);
    expect(lines(tagged, { k: 2 })).toEqual([
      'k: expected one of "1" | 1 | true | null, received 2 ("1" requires s; 1 requires n; true requires b; null requires z)',
    ]);
    expect(lines(tagged, { k: '1' })).toEqual(['s: required, expected string (k = "1" requires s)']);
    expect(lines(tagged, { k: 1 })).toEqual(['n: required, expected number (k = 1 requires n)']);
    expect(lines(tagged, { k: true })).toEqual(['b: required, expected boolean (k = true requires b)']);
    expect(lines(tagged, { k: null })).toEqual(['z: required, expected string (k = null requires z)']);
  });

  it('a variant reached through an intersection still names its requirements', () => {
    const schema = z.intersection(z.object({ a: z.string() }), du);
    expect(lines(schema, { a: '1', kind: 'remove' })).toEqual([
      'path: required, expected string (kind = remove requires path)',
    ]);
  });

  it('without schema and value it still names path and expectation', () => {
    const r = du.safeParse({ kind: 'append', path: 'p' });
    expect(formatIssues(r.error!)).toEqual(['content: required, expected string']);
    expect(formatIssues(r.error!.issues)).toEqual(['content: required, expected string']);
  });

  it('a union where every member failed on the kind names all kinds', () => {
    const schema = z.object({ t: z.union([z.string(), z.number()]) });
    expect(lines(schema, { t: true })).toEqual(['t: expected string | number, received boolean']);
    expect(formatIssues(schema.safeParse({ t: true }).error!)).toEqual([
      't: expected string | number, received boolean',
    ]);
  });

  it('a union where a member took the kind reports that member inside', () => {
    expect(lines(z.object({ t: z.union([z.string(), z.object({ a: z.number() })]) }), { t: { a: 'x' } })).toEqual([
      't.a: expected number, received string',
    ]);
  });

  it('enum, integer, bounds and formats in plain words', () => {
    const schema = z.object({
      m: z.enum(['get', 'diff']),
      n: z.int(),
      s: z.string().min(2),
      l: z.array(z.number()).max(1),
      p: z.number().positive(),
      e: z.email(),
      r: z.string().regex(/^a/),
      w: z.string().startsWith('x'),
      k: z.number().multipleOf(5),
    });
    expect(lines(schema, { m: 'post', n: 5.5, s: 'x', l: [1, 2], p: 0, e: 'nope', r: 'b', w: 'y', k: 7 })).toEqual([
      'm: expected one of "get" | "diff", received "post"',
      'n: expected integer, received number',
      's: expected at least 2 characters',
      'l: expected at most 1 items',
      'p: expected a number > 0',
      'e: expected a valid email',
      'r: expected a string matching /^a/',
      'w: expected a string starting with "x"',
      'k: expected a multiple of 5',
    ]);
  });

  it('several failures at one path share a line', () => {
    const schema = z.object({ s: z.string().min(3).regex(/^a/) });
    expect(lines(schema, { s: 'b' })).toEqual(['s: expected at least 3 characters; expected a string matching /^a/']);
  });

  it('formats repair issues (no code) the same way', () => {
    expect(formatIssues([{ path: ['tags'], message: 'the list was written as text; send the list itself' }])).toEqual([
      'tags: the list was written as text; send the list itself',
    ]);
    expect(formatIssues([{ path: [], message: 'too big' }])).toEqual(['(root): too big']);
  });

  it('exactly-one unions say so', () => {
    expect(lines(z.object({ x: z.xor([z.string(), z.string().min(1)]) }), { x: 'a' })).toEqual([
      'x: matched more than one option; it must match exactly one',
    ]);
  });

  it('record keys that fail their schema', () => {
    const out = lines(z.object({ r: z.record(z.string().min(3), z.number()) }), { r: { ab: 1 } });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^r(\.ab)?: invalid key/);
  });
});

describe('formatIssues never loses an issue', () => {
  it('an issue of an unknown code keeps its own message', () => {
    expect(formatIssues([{ code: 'brand_new', path: ['x'], message: 'Something new' } as any])).toEqual([
      'x: Something new',
    ]);
  });
  it('a union issue with empty alternatives still yields a line', () => {
    expect(
      formatIssues([{ code: 'invalid_union', errors: [[]], path: ['u'], message: 'Invalid input' } as any]),
    ).toEqual(['u: Invalid input']);
  });
});

describe('plain unions of tagged objects', () => {
  const tagged = z.union([
    z.object({ kind: z.literal('a'), x: z.string() }),
    z.object({ kind: z.literal('b'), y: z.number() }),
  ]);
  it('reports what the variant the tag chose lacks, not that the tag should be another', () => {
    expect(lines(tagged, { kind: 'b', x: 's' })).toEqual(['y: required, expected number']);
    expect(lines(tagged, { kind: 'a', y: 1 })).toEqual(['x: required, expected string']);
  });
});

describe('variant hints name the chosen tag only where they help', () => {
  const send = z.discriminatedUnion('type', [
    z.object({ type: z.literal('message'), text: z.string() }),
    z.object({ type: z.literal('mediaGroup'), media: z.array(z.object({ url: z.string() })) }),
  ]);
  it('on a field of the variant itself', () => {
    expect(lines(send, { type: 'mediaGroup' })).toEqual([
      'media: required, expected array (type = mediaGroup requires media)',
    ]);
  });
  it('not deeper down, where the variant fields are already there', () => {
    expect(lines(send, { type: 'mediaGroup', media: [{ url: 42 }] })).toEqual([
      'media[0].url: expected string, received number',
    ]);
  });
});

describe('unions a value matched no member of', () => {
  const flow = z.union([z.object({ flowName: z.string() }), z.object({ flowPath: z.string() })]);
  const sources = z.union([
    z.object({ content: z.string(), filename: z.string() }),
    z.object({ source_url: z.string() }),
    z.object({ source_file_id: z.string() }),
  ]);

  it('names every alternative of an untagged union when none of their keys was sent', () => {
    expect(lines(flow, {})).toEqual(['flowName, flowPath: none was sent; give one of: flowName | flowPath']);
    expect(lines(z.object({ f: flow }), { f: {} })).toEqual([
      'f.flowName, f.flowPath: none was sent; give one of: flowName | flowPath',
    ]);
    expect(lines(sources, {})).toEqual([
      'content, filename, source_url, source_file_id: none was sent; give one of: content + filename | source_url | source_file_id',
    ]);
  });

  it('reports the member closest by the keys sent', () => {
    expect(lines(sources, { content: 'x' })).toEqual(['filename: required, expected string']);
  });

  it('treats a key every member pins and missed as a tag: its values, and what each requires', () => {
    const tagged = z.union([
      z.object({ kind: z.literal('a'), x: z.string() }),
      z.object({ kind: z.literal('b'), y: z.number() }),
    ]);
    expect(lines(tagged, {})).toEqual(['kind: required, expected one of "a" | "b" (a requires x; b requires y)']);
    expect(lines(tagged, { kind: 'z', x: '1' })).toEqual([
      'kind: expected one of "a" | "b", received "z" (a requires x; b requires y)',
    ]);
  });

  it('groups tag values that require the same, and says when one requires nothing more', () => {
    const ops = z.discriminatedUnion('op', [
      z.object({ op: z.literal('append'), path: z.string(), content: z.string() }),
      z.object({ op: z.literal('prepend'), path: z.string(), content: z.string() }),
      z.object({ op: z.literal('noop') }),
    ]);
    expect(lines(ops, {})).toEqual([
      'op: required, expected one of "append" | "prepend" | "noop" (append | prepend require path, content; noop requires nothing else)',
    ]);
  });
});

describe('unknown keys of a strict variant', () => {
  it('keep their own error, without the variant hint', () => {
    const strict = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), a: z.string() }).strict(),
      z.object({ kind: z.literal('b') }),
    ]);
    expect(lines(strict, { kind: 'a', a: 'x', extra: 1 })).toEqual(['extra: unrecognized key']);
  });
});
