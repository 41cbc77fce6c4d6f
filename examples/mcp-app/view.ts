/**
 * The view's HTML: one self-contained page (MCP Apps hosts render it in a sandboxed iframe, with no access to
 * the server's files), which loads ext-apps's `App` from the package's self-contained bundle, inlined, and
 * shows the tool's `structuredContent` when the host sends the result.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let page: string | undefined;

/** The page, built once per process. */
export function viewHtml(): string {
  page ??= `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Order status</title>
<style>body{font:14px system-ui,sans-serif;margin:12px}dt{color:#666}dd{margin:0 0 8px;font-weight:600}</style>
</head>
<body>
<dl id="order"><dt>Waiting for the result…</dt></dl>
<script type="module">
${appModule()}
const { App } = McpApps;
const app = new App({ name: 'Order status view', version: '1.0.0' });
const shown = document.getElementById('order');
app.ontoolresult = (result) => {
  const order = result.structuredContent ?? {};
  shown.replaceChildren(...Object.entries(order).flatMap(([key, value]) => {
    const dt = document.createElement('dt');
    const dd = document.createElement('dd');
    dt.textContent = key;
    dd.textContent = String(value);
    return [dt, dd];
  }));
};
await app.connect();
</script>
</body>
</html>`;
  return page;
}

/**
 * ext-apps's browser bundle (`@modelcontextprotocol/ext-apps/app-with-deps`) as inline module code: its
 * closing `export { … }` becomes a local `McpApps` object, since an inline script cannot be imported from,
 * and `</script` inside it is escaped so the page's parser does not end the script there.
 */
function appModule(): string {
  const file = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps');
  const bundle = readFileSync(file, 'utf8');
  const at = bundle.lastIndexOf('export{');
  const entries = bundle
    .slice(at + 'export{'.length, bundle.lastIndexOf('}'))
    .split(',')
    .map((entry) => entry.trim().split(/\s+as\s+/))
    .map(([local, name]) => `${name ?? local}:${local}`);
  return `${bundle.slice(0, at)}const McpApps={${entries.join(',')}};`.replaceAll('</script', '<\\/script');
}
