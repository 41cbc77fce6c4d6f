/** The probe's tool-level rules (`checkToolFields`): icons, `_meta` keys, `execution`, the spec's shapes. */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';

const issuesOf = (fields: Record<string, unknown>) =>
  validateMcpSchemas([defineTool({ name: 't', handler: () => 'x', ...fields })]).issues.map(
    (i) => `${i.severity} ${i.path} ${i.code}`,
  );

describe('tool fields', () => {
  it('accepts every field as the spec types it', () => {
    const report = validateMcpSchemas([
      defineTool({
        name: 't',
        title: 'T',
        icons: [{ src: 'https://x.example/i.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' }],
        annotations: { readOnlyHint: true, title: 'T' },
        _meta: { 'openai/outputTemplate': 'ui://t/view.html', plain: 1 },
        execution: { taskSupport: 'forbidden' },
        handler: () => 'x',
      }),
    ]);
    expect(report.issues).toEqual([]);
    expect(issuesOf({ icons: [{ src: 'data:image/png;base64,AAAA' }] })).toEqual([]);
  });

  it('reports a malformed icon at its pointer', () => {
    expect(issuesOf({ icons: [{ src: 'javascript:alert(1)' }, { src: 'file:///etc/x.png' }] })).toEqual([
      'error /icons/0/src invalid-icon',
      'error /icons/1/src invalid-icon',
    ]);
    expect(issuesOf({ icons: [{ theme: 'blue', src: 'https://x.example/i.png' }] })).toEqual([
      'error /icons/0/theme invalid-icon',
    ]);
    expect(issuesOf({ icons: [{}] })).toEqual(['error /icons/0/src invalid-icon']);
    expect(issuesOf({ icons: 'https://x.example/i.png' })).toEqual(['error /icons invalid-icon']);
  });

  it('reports _meta keys the spec reserves, and keys outside its grammar', () => {
    expect(
      issuesOf({
        _meta: {
          'io.modelcontextprotocol/related-task': 1,
          'mcp.dev/x': 1,
          'tools.mcp.com/y': 1,
          'com.example/ok': 1,
          'mcpish.example/ok': 1,
        },
      }),
    ).toEqual([
      'error /_meta/io.modelcontextprotocol~1related-task reserved-meta-key',
      'error /_meta/mcp.dev~1x reserved-meta-key',
      'error /_meta/tools.mcp.com~1y reserved-meta-key',
    ]);
    expect(issuesOf({ _meta: { '-bad': 1, '1abc.example/x': 1, 'a b': 1 } })).toEqual([
      'error /_meta/-bad invalid-meta-key',
      'error /_meta/1abc.example~1x invalid-meta-key',
      'error /_meta/a b invalid-meta-key',
    ]);
    expect(issuesOf({ _meta: [] })).toEqual(['error /_meta invalid-tool-field']);
  });

  it('holds title, annotations and execution to the spec, and refuses tasks stateless serving cannot run', () => {
    expect(issuesOf({ title: 3, annotations: { destructiveHint: 'no' } })).toEqual([
      'error /title invalid-tool-field',
      'error /annotations/destructiveHint invalid-tool-field',
    ]);
    expect(issuesOf({ execution: { taskSupport: 'required' } })).toEqual([
      'error /execution/taskSupport invalid-tool-field',
    ]);
    expect(issuesOf({ execution: { taskSupport: 'optional' } })).toEqual([
      'warning /execution/taskSupport invalid-tool-field',
    ]);
    expect(issuesOf({ execution: { taskSupport: 'always' } })).toEqual([
      'error /execution/taskSupport invalid-tool-field',
    ]);
  });
});
