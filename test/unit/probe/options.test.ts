import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PORTABLE_FORMATS } from '../../../src/core/json-schema/client-limits.js';
import { check, only, pathsOf, toDoc } from './helpers.js';

const typed = { requireTypedProperties: true };

describe('requireTypedProperties', () => {
  it('a nested property with only a description is reported, quoting the description', () => {
    const doc = toDoc(z.object({ operations: z.object({ payload: z.unknown().describe('blob') }) }));
    const issue = only(check(doc, { options: typed }), 'untyped-property', '/properties/operations/properties/payload');
    expect(issue.severity).toBe('error');
    expect(issue.message).toContain('has only a description');
    expect(issue.message).toContain('"blob"');
  });

  it('an allowUntyped entry `<tool>:<pointer>` silences exactly that property', () => {
    const doc = toDoc(
      z.object({ operations: z.object({ payload: z.unknown().describe('blob'), other: z.unknown() }) }),
    );
    const allowUntyped = [
      't:/properties/operations/properties/payload',
      'other-tool:/properties/operations/properties/other',
    ];
    const issues = check(doc, { options: { ...typed, allowUntyped } });
    expect(pathsOf(issues, 'untyped-property')).toEqual(['/properties/operations/properties/other']);
    // The message tells how to allow it, in the same format.
    expect(issues[0]!.message).toContain("'t:/properties/operations/properties/other'");
  });

  it('declaring a concrete type clears it', () => {
    const doc = toDoc(z.object({ operations: z.object({ payload: z.string().describe('blob') }) }));
    expect(check(doc, { options: typed })).toEqual([]);
  });

  it('only the untyped parameters are reported, with a recommendation for a typed schema', () => {
    const doc = toDoc(
      z.object({ a: z.number().int(), b: z.unknown(), f: z.object({ database_id: z.string() }), g: z.unknown() }),
    );
    const issues = check(doc, { options: typed });
    expect(pathsOf(issues, 'untyped-property')).toEqual(['/properties/b', '/properties/g']);
    expect(only(issues, 'untyped-property', '/properties/b').message).toMatch(/typed schema/);
  });

  it('an untyped value inside array items', () => {
    const doc = toDoc(
      z.object({
        where: z.array(
          z.object({
            column: z.string(),
            operator: z.enum(['eq', 'neq', 'gt']),
            value: z.unknown().describe('Value to compare'),
          }),
        ),
      }),
    );
    const issue = only(check(doc, { options: typed }), 'untyped-property', '/properties/where/items/properties/value');
    expect(issue.message).toContain('has only a description');
  });

  it('the untyped `extra` is reported; the nullable `tags` (anyOf of typed branches) is not', () => {
    const doc = toDoc(
      z.object({ thought: z.string(), tags: z.array(z.string()).nullable().optional(), extra: z.unknown() }),
    );
    expect(pathsOf(check(doc, { options: typed }), 'untyped-property')).toEqual(['/properties/extra']);
  });

  it('in record values and tuple slots too', () => {
    const doc = toDoc(
      z.object({
        byId: z.record(z.string(), z.object({ v: z.any() })),
        pair: z.tuple([z.object({ w: z.unknown() }), z.string()]),
      }),
    );
    expect(pathsOf(check(doc, { options: typed }), 'untyped-property')).toEqual([
      '/properties/byId/additionalProperties/properties/v',
      '/properties/pair/prefixItems/0/properties/w',
    ]);
  });

  it('covers array items, tuple items and record values, each at its own pointer', () => {
    const doc = toDoc(
      z.object({
        list: z.array(z.any()),
        pair: z.tuple([z.string(), z.unknown()], z.any()),
        meta: z.record(z.string(), z.unknown()),
        typed: z.array(z.string()),
        loose: z.looseObject({ a: z.string() }),
      }),
    );
    const issues = check(doc, { options: typed });
    expect(pathsOf(issues, 'untyped-property')).toEqual([
      '/properties/list/items',
      '/properties/meta/additionalProperties',
      '/properties/pair/items',
      '/properties/pair/prefixItems/1',
    ]);
    expect(only(issues, 'untyped-property', '/properties/list/items').message).toMatch(/^each array item has no type/);
    const allowed = check(doc, { options: { ...typed, allowUntyped: ['t:/properties/list/items'] } });
    expect(pathsOf(allowed, 'untyped-property')).not.toContain('/properties/list/items');
  });

  it('flattened fields typed by a type list, const-only and enum-only fields count as typed', () => {
    const doc = {
      type: 'object',
      properties: {
        media: { type: ['object', 'array'], items: { type: 'object' } },
        target: { type: ['string', 'number'] },
        c: { const: 'x' },
        e: { enum: [1, 2] },
        r: { $ref: '#' },
      },
    };
    expect(check(doc, { options: typed })).toEqual([]);
  });

  it('is off by default and applies to the input side only', () => {
    const doc = toDoc(z.object({ b: z.unknown() }));
    expect(pathsOf(check(doc), 'untyped-property')).toEqual([]);
    expect(pathsOf(check(doc, { side: 'output', options: typed }), 'untyped-property')).toEqual([]);
  });
});

describe('requirePortableFormats', () => {
  const portable = { requirePortableFormats: true };

  it('a non-portable format is reported at the field, naming the format', () => {
    const issue = only(
      check(toDoc(z.object({ payload: z.cuid2() })), { options: portable }),
      'non-portable-format',
      '/properties/payload',
    );
    expect(issue.severity).toBe('error');
    expect(issue.message).toContain('"cuid2"');
  });

  it('allowFormats opts a format in, and nothing in the document is stripped', () => {
    const doc = toDoc(z.object({ payload: z.cuid2() }));
    const before = structuredClone(doc);
    expect(check(doc, { options: { ...portable, allowFormats: ['cuid2'] } })).toEqual([]);
    expect(doc).toEqual(before);
    expect(doc.properties.payload.format).toBe('cuid2');
    expect(doc.properties.payload.pattern).toBeTypeOf('string');
  });

  it('every Zod format outside the portable list is reported, in items and record values too', () => {
    const doc = toDoc(
      z.object({
        list: z.array(z.ulid()),
        byId: z.record(z.string(), z.nanoid()),
        b64: z.base64(),
        phone: z.e164(),
        when: z.iso.datetime(),
        day: z.iso.date(),
        mail: z.email(),
        id: z.uuid(),
        url: z.url(),
        ip: z.ipv4(),
      }),
    );
    expect(pathsOf(check(doc, { options: portable }), 'non-portable-format')).toEqual([
      '/properties/b64',
      '/properties/byId/additionalProperties',
      '/properties/list/items',
      '/properties/phone',
    ]);
  });

  it('the portable list holds the common JSON Schema formats', () => {
    for (const f of ['date-time', 'date', 'time', 'email', 'uri', 'uuid']) expect(PORTABLE_FORMATS).toContain(f);
  });

  it('applies to output schemas too, saying "output"', () => {
    const issue = only(
      check(toDoc(z.object({ id: z.cuid() })), { side: 'output', options: portable }),
      'non-portable-format',
      '/properties/id',
    );
    expect(issue.side).toBe('output');
    expect(issue.message).toMatch(/^Output schema:/);
  });

  it('is off by default', () => {
    expect(check(toDoc(z.object({ payload: z.cuid2() })))).toEqual([]);
  });
});
