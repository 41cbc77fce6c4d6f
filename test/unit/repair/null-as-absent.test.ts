/**
 * `nullAsAbsent`: null sent for an optional key whose schema refuses null is read as the key left out,
 * at any depth the walk reaches, and only there. Clients that list every key in `required` (OpenAI
 * strict mode, the `openai-strict` projection) send null for keys the model leaves out.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, wire } from './helpers.js';

describe('repair: null for an optional key', () => {
  it('null for an optional key is left out, and the repair is reported with its path', () => {
    const schema = z.object({ title: z.string(), note: z.string().optional() });
    const sent = wire('{"title":"a","note":null}');
    const r = call(schema, sent);
    expect(r.ok).toBe(true);
    expect(r.data).toEqual({ title: 'a' });
    expect(r.repair.repairs).toEqual([{ path: 'note', from: 'null-as-absent' }]);
    expect(sent).toEqual({ title: 'a', note: null }); // the caller's object is not touched
  });

  it('a defaulted key sent as null gets its default', () => {
    const r = call(z.object({ limit: z.number().default(10) }), wire('{"limit":null}'));
    expect(r.data).toEqual({ limit: 10 });
  });

  it('at depth: in a nested object, in array items, in the variant a tag selects', () => {
    const schema = z.object({
      filter: z.object({ status: z.enum(['open', 'closed']).optional(), q: z.string() }),
      rows: z.array(z.object({ id: z.number(), label: z.string().optional() })),
      action: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('move'), to: z.string(), reason: z.string().optional() }),
        z.object({ kind: z.literal('drop') }),
      ]),
    });
    const r = call(
      schema,
      wire(
        '{"filter":{"status":null,"q":"x"},"rows":[{"id":1,"label":null},{"id":2,"label":"b"}],"action":{"kind":"move","to":"y","reason":null}}',
      ),
    );
    expect(r.ok).toBe(true);
    expect(r.data).toEqual({
      filter: { q: 'x' },
      rows: [{ id: 1 }, { id: 2, label: 'b' }],
      action: { kind: 'move', to: 'y' },
    });
    expect(r.repair.repairs.map((x) => x.path)).toEqual(['filter.status', 'rows[0].label', 'action.reason']);
  });

  it('inside an object sent as JSON text', () => {
    const schema = z.object({ meta: z.object({ tag: z.string().optional() }) });
    const r = call(schema, wire('{"meta":"{\\"tag\\":null}"}'));
    expect(r.data).toEqual({ meta: {} });
    expect(r.repair.repairs).toEqual([
      { path: 'meta', from: 'json-string' },
      { path: 'meta.tag', from: 'null-as-absent' },
    ]);
  });

  it('in a plain union, the member for which the key is optional is the one that parses', () => {
    const schema = z.object({
      target: z.union([
        z.object({ url: z.string(), label: z.string().optional() }),
        z.object({ path: z.string() }).strict(),
      ]),
    });
    const r = call(schema, wire('{"target":{"url":"u","label":null}}'));
    expect(r.data).toEqual({ target: { url: 'u' } });
  });

  it('null is kept where the key accepts it: nullable, unknown, or some union member takes null', () => {
    const keeps = [
      z.object({ note: z.string().nullable().optional() }),
      z.object({ note: z.unknown() }),
      z.object({ note: z.union([z.string(), z.null()]).optional() }),
      z.object({ note: z.string().optional().catch('x') }),
    ];
    for (const schema of keeps) {
      const r = call(schema, wire('{"note":null}'));
      expect(r.repair.repairs, JSON.stringify(r.repair)).toEqual([]);
    }
  });

  it('null for a required key is not repaired: Zod refuses it by path', () => {
    const r = call(z.object({ title: z.string() }), wire('{"title":null}'));
    expect(r.repair.repairs).toEqual([]);
    expect(r.ok).toBe(false);
    expect(r.lines[0]).toMatch(/^title: expected string, received null/);
  });

  it('null for a key of a record that takes every key is left out', () => {
    const schema = z.object({ tags: z.record(z.string(), z.array(z.string())) });
    const r = call(schema, wire('{"tags":{"a":["x"],"b":null}}'));
    expect(r.data).toEqual({ tags: { a: ['x'] } });
    expect(r.repair.repairs).toEqual([{ path: 'tags.b', from: 'null-as-absent' }]);
  });

  it('null for a key of a finite key set that may be left out (a partial record, an optional or defaulted value) is left out', () => {
    const cases: Array<[z.ZodType, string, unknown]> = [
      [z.partialRecord(z.enum(['a', 'b']), z.number()), '{"a":1,"b":null}', { a: 1 }],
      [z.record(z.enum(['a', 'b']), z.number().optional()), '{"a":1,"b":null}', { a: 1 }],
      [z.record(z.enum(['a', 'b']), z.number().default(3)), '{"a":1,"b":null}', { a: 1, b: 3 }],
    ];
    for (const [schema, text, parsed] of cases) {
      const r = call(z.object({ scores: schema }), wire(`{"scores":${text}}`));
      expect(r.data, text).toEqual({ scores: parsed });
      expect(r.repair.repairs, text).toEqual([{ path: 'scores.b', from: 'null-as-absent' }]);
    }
  });

  it("null for a key a record's finite key set lacks is left out (a joined variant's key); a loose record's is left alone", () => {
    const schema = z.object({
      s: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('scores'), by: z.partialRecord(z.enum(['a', 'b']), z.number()) }),
        z.object({ kind: z.literal('range'), by: z.object({ min: z.number() }) }),
      ]),
    });
    const r = call(schema, wire('{"s":{"kind":"scores","by":{"a":1,"b":null,"min":null}}}'));
    expect(r.data).toEqual({ s: { kind: 'scores', by: { a: 1 } } });
    expect(r.repair.repairs).toEqual([
      { path: 's.by.b', from: 'null-as-absent' },
      { path: 's.by.min', from: 'null-as-absent' },
    ]);
    const exhaustive = call(z.record(z.enum(['a']), z.number()), wire('{"a":1,"x":null}'));
    expect(exhaustive.data).toEqual({ a: 1 });
    // A non-null value there is the caller's mistake, and Zod still refuses it by name.
    expect(call(z.partialRecord(z.enum(['a', 'b']), z.number()), wire('{"c":1}')).ok).toBe(false);
    const loose = call(z.looseRecord(z.enum(['a']), z.number()), wire('{"a":1,"x":null}'));
    expect(loose.repair.repairs).toEqual([]);
    expect(loose.data).toEqual({ a: 1, x: null });
  });

  it('null for a record key of a finite key set, an array item or an undeclared key is not repaired', () => {
    const cases: Array<[z.ZodType, string]> = [
      [z.record(z.enum(['a', 'b']), z.string()), '{"a":null,"b":"x"}'],
      [z.object({ xs: z.array(z.string().optional()) }), '{"xs":[null]}'],
      [z.object({ a: z.string() }), '{"a":"x","b":null}'],
      [z.looseObject({ a: z.string() }), '{"a":"x","b":null}'],
    ];
    for (const [schema, text] of cases) {
      expect(call(schema, wire(text)).repair.repairs, text).toEqual([]);
    }
  });

  it('null for a key of a z.partialRecord is left out: each of its keys may be missing', () => {
    const schema = z.object({ flags: z.partialRecord(z.enum(['a', 'b']), z.boolean()) });
    const r = call(schema, wire('{"flags":{"a":true,"b":null}}'));
    expect(r.data).toEqual({ flags: { a: true } });
    expect(r.repair.repairs).toEqual([{ path: 'flags.b', from: 'null-as-absent' }]);
  });

  it("null for a key outside a record's finite key set is left out; a loose record passes it through as sent", () => {
    const r = call(z.object({ f: z.record(z.enum(['a', 'b']), z.number()) }), wire('{"f":{"a":1,"b":2,"x":null}}'));
    expect(r.data).toEqual({ f: { a: 1, b: 2 } });
    expect(r.repair.repairs).toEqual([{ path: 'f.x', from: 'null-as-absent' }]);
    // A flattened union's object for a variant whose field is such a record: strict mode sends null for
    // the keys the other variant's object declares.
    const variants = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), f: z.object({ x: z.string() }) }),
      z.object({ kind: z.literal('b'), f: z.record(z.enum(['p', 'q']), z.number()) }),
    ]);
    const flat = call(variants, wire('{"kind":"b","f":{"x":null,"p":1,"q":2}}'));
    expect(flat.ok).toBe(true);
    expect(flat.data).toEqual({ kind: 'b', f: { p: 1, q: 2 } });
    const loose = call(z.looseRecord(z.enum(['a']), z.number()), wire('{"a":1,"x":null}'));
    expect(loose.repair.repairs).toEqual([]);
    expect(loose.data).toEqual({ a: 1, x: null });
  });

  it("null for another variant's key in a strict variant is left out; a strip variant's is left for Zod to drop", () => {
    const schema = z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('move'), to: z.string() }),
      z.object({ kind: z.literal('drop'), reason: z.string().optional() }),
    ]);
    const strict = call(schema, wire('{"kind":"move","to":"x","reason":null}'));
    expect(strict.data).toEqual({ kind: 'move', to: 'x' });
    expect(strict.repair.repairs).toEqual([{ path: 'reason', from: 'null-as-absent' }]);
    const strip = call(schema, wire('{"kind":"drop","to":null}'));
    expect(strip.repair.repairs).toEqual([]);
    expect(strip.data).toEqual({ kind: 'drop' });
    // Not null: the strict variant still refuses the key by name.
    expect(call(schema, wire('{"kind":"move","to":"x","reason":"r"}')).lines[0]).toMatch(/^reason: unrecognized key/);
  });

  it('an intersection leaves the key out only when every side that declares it makes it optional', () => {
    const both = z.intersection(z.object({ a: z.string().optional() }), z.object({ b: z.number().optional() }));
    expect(call(both, wire('{"a":null,"b":null}')).data).toEqual({});
    const required = z.intersection(z.object({ a: z.string().optional() }), z.object({ a: z.string() }));
    expect(call(required, wire('{"a":null}')).repair.repairs).toEqual([]);
  });

  it('switched off with nullAsAbsent: false, the null reaches Zod', () => {
    const r = call(z.object({ note: z.string().optional() }), wire('{"note":null}'), { nullAsAbsent: false });
    expect(r.repair.repairs).toEqual([]);
    expect(r.ok).toBe(false);
  });

  it('on by itself: with json and scalars off, null is still read as absent', () => {
    const r = call(z.object({ note: z.string().optional() }), wire('{"note":null}'), { json: false, scalars: false });
    expect(r.data).toEqual({});
  });
});
