/** Tool-call markup left in a string argument refuses the call, naming the field and what went missing. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkCall } from '../../../src/core/arguments/call.js';
import { markupLines, TOOL_CALL_MARKUP } from '../../../src/core/arguments/hygiene.js';
import { inspectSentValues } from '../../../src/core/arguments/sent-values.js';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
import { callPolicy, settleOptions } from '../../../src/core/serve/config.js';
import { echoTool } from '../../support/echo.js';

/** The hygiene lines for `args`, as checkCall finds them: the one pass over the sent values, then the text. */
function hygieneLines(args: Record<string, unknown>, declared: string[], required: string[]): string[] {
  const sent = inspectSentValues(args, { maxDepth: 64, maxValues: 1_000_000, markup: true });
  if (!sent.ok) throw new Error(sent.message);
  return markupLines(sent.polluted, sent.morePolluted, args, declared, required);
}

const swallowed = 'New text.</content>\n<parameter name="reason">because it was wrong</parameter>';

describe('tool-call markup in string arguments', () => {
  it('names the polluted field and a declared argument the markup swallowed', () => {
    expect(hygieneLines({ path: 'a.md', content: swallowed }, ['path', 'content', 'reason'], ['path'])).toEqual([
      'content: the text holds tool-call markup (`</parameter>`), so the client folded later arguments into it; send content again without the markup',
      'reason: missing, but named in the markup inside content; send it as its own argument',
    ]);
  });

  it('finds every marker at any depth, in strings only, and names missing required arguments', () => {
    for (const marker of TOOL_CALL_MARKUP) {
      const lines = hygieneLines({ notes: [{ text: `x ${marker} y` }] }, ['notes', 'title'], ['title']);
      expect(lines[0]).toMatch(/^notes\[0\]\.text: the text holds tool-call markup/);
      expect(lines[1]).toBe('title: required, and missing; send it as its own argument');
    }
    expect(hygieneLines({ '</invoke>': 'clean', n: 1 }, [], [])).toEqual([]);
  });

  it('names the first polluted strings and counts the rest, however many there are', () => {
    const notes = Array.from({ length: 1000 }, () => `x </invoke> y`);
    const lines = hygieneLines({ notes }, ['notes'], []);
    expect(lines.slice(0, 5).map((l) => l.split(':')[0])).toEqual([
      'notes[0]',
      'notes[1]',
      'notes[2]',
      'notes[3]',
      'notes[4]',
    ]);
    expect(lines[5]).toBe('…and 995 more strings holding tool-call markup');
    expect(lines).toHaveLength(6);
  });
});

describe('checkCall with argument hygiene', () => {
  const tool = prepareTools([echoTool('edit', z.object({ content: z.string(), reason: z.string().optional() }))])
    .tools[0]!;

  it('refuses before the parse by default, and passes the text through when switched off', async () => {
    const on = await checkCall(tool, { content: swallowed }, callPolicy(settleOptions()));
    expect(on).toMatchObject({
      ok: false,
      messages: [expect.stringMatching(/^content: /), expect.stringMatching(/^reason: /)],
    });
    const off = await checkCall(
      tool,
      { content: swallowed },
      callPolicy(settleOptions({ arguments: { hygiene: false } })),
    );
    expect(off).toMatchObject({ ok: true, value: { input: { content: swallowed } } });
  });
});
