/** How a tag value is written where a model reads it (hints, error lines, notices). */
import { describe, expect, it } from 'vitest';
import { tagValuesText, tagValueText } from '../../../src/core/json-schema/tag-values.js';

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
