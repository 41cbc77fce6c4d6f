/**
 * The kinds issue 21 added to the property suite, by property:
 *
 * 1. Regex flags: for random sources built from letters, classes, ranges, `.`, anchors and groups, with
 *    random flags, the flag-free pattern served (read as JSON Schema validators read it, with `u`) gives
 *    the same answer as the flagged regex on random strings; where there is none, the pattern is left out.
 * 2. `.meta()` keywords of the wrong type, beside the random schemas of the flatten suite: every projection
 *    reports `invalid-json-schema` for the tool at exactly the bad keyword's pointer, and nowhere else.
 *
 * The superset and meta-schema properties of every projection over the other new kinds (big integer bounds,
 * finite-keyed records, `""`/`null` in an enum, recursion) run in profile-projections.property.test.ts and
 * flatten.property.test.ts, whose leaves include them (arbitraries.ts). Fixed seeds; the run counts scale
 * with MCP_MOUNT_PROPERTY_RUNS (test/support/property-runs.ts).
 */
import fc from 'fast-check';
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { flagFreePattern } from '../../../src/core/json-schema/regex-flags.js';
import { PROJECTION_NAMES } from '../../../src/core/projection/names.js';
import { propertyRuns } from '../../support/property-runs.js';
import { rootArb } from './arbitraries.js';

const SEED = 20261202;

const atom = fc.constantFrom(
  'a',
  'B',
  'z',
  '0',
  '-',
  '.',
  ' ',
  '\\n',
  '\\d',
  '\\w',
  '\\s',
  '[a-c]',
  '[^x]',
  '[A-Fq]',
  '[0-9a-f]',
  '(?:ab)',
  '(?:a|B)',
  '(?=a)',
  '\\.',
  '[.]',
  '[]',
  '[^]',
  'k',
  'S',
  '[j-l]',
  '[^s]',
  '[r-t]',
);
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{1,2}');
const sourceArb = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([start, parts, end]) => `${start ? '^' : ''}${parts.map(([a, q]) => a + q).join('')}${end ? '$' : ''}`);
const flagsArb = fc.oneof(
  fc.subarray(['i', 's', 'm', 'g', 'u', 'y', 'd']).map((f) => f.join('')),
  // Unicode case folding, where U+212A and U+017F join k and s.
  fc.subarray(['s', 'm', 'y']).map((f) => `iu${f.join('')}`),
);
const subjectArb = fc.string({
  unit: fc.constantFrom(
    'a',
    'A',
    'b',
    'B',
    'z',
    'Z',
    'k',
    'K',
    '0',
    '7',
    '-',
    '.',
    ' ',
    '\n',
    'x',
    'X',
    'q',
    'Q',
    'é',
    's',
    'S',
    '\u212A',
    '\u017F',
    ']',
  ),
  maxLength: 6,
});

function compiles(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

describe('served holes: property', () => {
  it(`a flagged regex is served as an equivalent flag-free pattern or not at all (seed ${SEED})`, () => {
    const stats = { rewritten: 0, left: 0, subjects: 0 };
    fc.assert(
      fc.property(
        sourceArb,
        flagsArb,
        fc.array(subjectArb, { minLength: 12, maxLength: 12 }),
        (source, flags, subjects) => {
          // Only sources valid as written and as JSON Schema reads them (`u`): a quantified lookahead is not.
          fc.pre(compiles(source, flags) && compiles(source, 'u'));
          const original = new RegExp(source, flags);
          const served = flagFreePattern(source, flags);
          if (served === undefined) {
            stats.left++;
            return;
          }
          stats.rewritten++;
          expect(compiles(served, 'u'), `/${source}/${flags} served as ${served}`).toBe(true);
          const plain = new RegExp(served, 'u');
          for (const s of subjects) {
            original.lastIndex = 0;
            expect(plain.test(s), `/${source}/${flags} served as ${served}, on ${JSON.stringify(s)}`).toBe(
              original.test(s),
            );
            stats.subjects++;
          }
        },
      ),
      { seed: SEED, numRuns: propertyRuns(400, 50) },
    );
    console.log(`[served holes: regex flags] ${JSON.stringify(stats)}`);
    expect(stats.rewritten).toBeGreaterThan(stats.left);
  });

  it(`a .meta() keyword of the wrong type is an error at its pointer in every projection (seed ${SEED})`, () => {
    const bad = fc.constantFrom<[string, unknown]>(
      ['deprecated', 'yes'],
      ['readOnly', 1],
      ['title', 5],
      ['examples', 'x'],
      ['description', false],
      ['minLength', -1],
    );
    fc.assert(
      fc.property(rootArb(2), bad, (gen, [keyword, value]) => {
        const input = z.object({ payload: gen.schema, bad: z.string().meta({ [keyword]: value }) });
        const tool = defineTool({ name: 'm', input, handler: () => ({}) });
        const report = validateMcpSchemas([tool], {
          projection: { serve: [...PROJECTION_NAMES], choose: 'auto' },
          schemaValidation: { policy: 'warn' },
        });
        const found = report.issues.filter((i) => i.code === 'invalid-json-schema');
        const at = `/properties/bad/${keyword}`;
        expect(
          found.filter((i) => i.path !== at),
          gen.label,
        ).toEqual([]);
        // A projection may drop the keyword itself (Gemini drops `minLength` never; Cursor keeps all), so each
        // projection that still serves it must say so.
        for (const name of PROJECTION_NAMES) {
          const doc = report.projections[name]?.tools.find((t) => t.name === 'm')?.inputSchema as any;
          const served = doc?.properties?.bad && keyword in doc.properties.bad;
          if (served)
            expect(
              found.some((i) => i.projection === name),
              `${name} for ${gen.label}`,
            ).toBe(true);
        }
      }),
      { seed: SEED, numRuns: propertyRuns(60, 10) },
    );
  });
});
