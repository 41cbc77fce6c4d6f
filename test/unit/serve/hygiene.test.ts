/** Tool-call markup left in a string argument refuses the call, naming the field and what went missing. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settleOptions } from '../../../src/core/mount/config.js';
import { prepareTools } from '../../../src/core/mount/prepare.js';
import { checkCall } from '../../../src/core/serve/call.js';
import { markupLines, TOOL_CALL_MARKUP } from '../../../src/core/serve/hygiene.js';
import { echoTool } from '../../support/echo.js';

const swallowed = 'New text.</content>\n<parameter name="reason">because it was wrong</parameter>';

describe('markupLines', () => {
  it('names the polluted field and a declared argument the markup swallowed', () => {
    expect(markupLines({ path: 'a.md', content: swallowed }, ['path', 'content', 'reason'], ['path'])).toEqual([
      'content: the text holds tool-call markup (`</parameter>`), so the client folded later arguments into it; send content again without the markup',
      'reason: missing, but named in the markup inside content; send it as its own argument',
    ]);
  });

  it('finds every marker at any depth, in strings only, and names missing required arguments', () => {
    for (const marker of TOOL_CALL_MARKUP) {
      const lines = markupLines({ notes: [{ text: `x ${marker} y` }] }, ['notes', 'title'], ['title']);
      expect(lines[0]).toMatch(/^notes\[0\]\.text: the text holds tool-call markup/);
      expect(lines[1]).toBe('title: required, and missing; send it as its own argument');
    }
    expect(markupLines({ '</invoke>': 'clean', n: 1 }, [], [])).toEqual([]);
  });
});

describe('checkCall with argument hygiene', () => {
  const tool = prepareTools([echoTool('edit', z.object({ content: z.string(), reason: z.string().optional() }))])
    .tools[0]!;

  it('refuses before the parse by default, and passes the text through when switched off', async () => {
    const on = await checkCall(tool, { content: swallowed }, settleOptions());
    expect(on).toMatchObject({
      ok: false,
      messages: [expect.stringMatching(/^content: /), expect.stringMatching(/^reason: /)],
    });
    const off = await checkCall(tool, { content: swallowed }, settleOptions({ argumentHygiene: false }));
    expect(off).toMatchObject({ ok: true, value: { input: { content: swallowed } } });
  });
});
