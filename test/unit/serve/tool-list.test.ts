/**
 * The list cache's own rules (tool-list.ts, list-cache.ts): which mounts mark `tools/list` private, and
 * that a list showing every tool is the one prebuilt buffer, a partial one the same entries joined.
 */
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { settleOptions } from '../../../src/core/mount/config.js';
import { prepareTools } from '../../../src/core/mount/prepare.js';
import { listEntries } from '../../../src/core/serve/list-cache.js';
import { registration } from '../../../src/core/serve/registration.js';
import { toolList } from '../../../src/core/serve/tool-list.js';
import { toolSet } from '../../../src/core/serve/tool-set.js';

const plain = defineTool({ name: 'plain', input: z.object({ a: z.string() }), handler: () => 'ok' });
const scoped = defineTool({ name: 'scoped', input: z.object({}), scopes: ['admin'], handler: () => 'ok' });
const other = defineTool({ name: 'other', description: 'o', input: z.object({ b: z.number() }), handler: () => 'ok' });

function registrations(tools: Parameters<typeof prepareTools>[0], options: McpMountOptions = {}) {
  const config = settleOptions({ schemaValidation: { policy: 'warn' }, ...options });
  return { config, registrations: prepareTools(tools, config).tools.map((t) => registration(t, config)) };
}

function hints(tools: Parameters<typeof prepareTools>[0], options: McpMountOptions = {}) {
  const { config, registrations: rs } = registrations(tools, options);
  return toolList(rs, config, toolSet(rs, config)).cacheHints;
}

const PRIVATE = { 'tools/list': { cacheScope: 'private' } };

describe('cacheScope of tools/list', () => {
  it('is left to the SDK (private, ttlMs 0 today) where every caller is listed the same tools', () => {
    expect(hints([plain, other])).toBeUndefined();
    expect(hints([plain, scoped], { access: { listUnauthorizedTools: true } })).toBeUndefined();
  });

  it('is private whatever the SDK defaults to where the list depends on the caller', () => {
    expect(hints([plain], { access: { visibleTools: () => ['plain'] } })).toEqual(PRIVATE);
    expect(hints([plain, scoped])).toEqual(PRIVATE);
    expect(hints([plain], { projection: 'auto' })).toEqual(PRIVATE);
    expect(hints([plain], { projection: () => 'flat' })).toEqual(PRIVATE);
  });
});

describe('list entries', () => {
  it('serve every listed tool from one prebuilt buffer, and a subset as those entries joined', async () => {
    const { registrations: rs } = registrations([plain, other, scoped]);
    const entries = listEntries(rs, 'faithful', 'modern');
    const every = entries.join(rs);
    expect(entries.join([...rs])).toBe(every);
    const text = (blob: Blob) => blob.text();
    const all = JSON.parse(`[${await text(every)}]`);
    expect(all.map((t: { name: string }) => t.name)).toEqual(['plain', 'other', 'scoped']);
    expect(JSON.parse(`[${await text(entries.join([rs[0]!, rs[2]!]))}]`)).toEqual([all[0], all[2]]);
    expect(await text(entries.join([]))).toBe('');
  });
});
