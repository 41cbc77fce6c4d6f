/** How a tag value is written where a model reads it (hints, error lines, notices), and how a tag is typed. */
import { describe, expect, it } from 'vitest';
import { tagType, tagValuesText, tagValueText } from '../../../src/core/json-schema/tag-values.js';

describe('tagValueText', () => {
  it('writes an ordinary string as it is, as the hints always did', () => {
    for (const s of ['create', 'image/png', 'v0', 'sort by', 'a-b_c', 'É']) expect(tagValueText(s)).toBe(s);
  });

  it('writes numbers, booleans and null as JSON', () => {
    expect([1, -2.5, 0, true, false, null].map(tagValueText)).toEqual(['1', '-2.5', '0', 'true', 'false', 'null']);
  });

  it('quotes a string that would read as another value, or as several, or as nothing', () => {
    const quoted = [
      '1',
      '-2.5',
      '1e3',
      '0x10',
      'Infinity',
      'true',
      'False',
      'null',
      '',
      ' a',
      'a ',
      'a | b',
      'say "hi"',
    ];
    for (const s of quoted) expect(tagValueText(s), s).toBe(JSON.stringify(s));
    expect(tagValueText('line\nbreak')).toBe('"line\\nbreak"');
  });

  it('joins values with " | ", each written on its own', () => {
    expect(tagValuesText(['1', 1, 'a', null])).toBe('"1" | 1 | a | null');
  });
});

describe('tagType', () => {
  it('one type is a name; several a list in order of first appearance, null last', () => {
    expect(tagType(['a', 'b'])).toBe('string');
    expect(tagType([true, false])).toBe('boolean');
    expect(tagType([1, 2])).toBe('integer');
    expect(tagType([null, 'a', 1, true])).toEqual(['string', 'integer', 'boolean', 'null']);
  });

  it('numbers are `number` when one is a fraction (it admits the integers too)', () => {
    expect(tagType([1, 2.5])).toBe('number');
    expect(tagType(['a', 2.5, 3])).toEqual(['string', 'number']);
  });
});
