/**
 * Walks the static import graph of the given files with Node's own resolution, under the conditions this
 * process was started with (`--conditions=workerd` ...), and prints what it loaded and which imports a
 * Worker or Edge bundle could not take: Node builtins and the framework packages only the Node adapters
 * need. Run as `node --experimental-import-meta-resolve [--conditions=x ...] import-graph.mjs <file>...`
 * (the flag lets `import.meta.resolve` resolve relative to each importing file).
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const FRAMEWORKS = new Set(['hono', 'express', '@hono/node-server']);
const BUILTINS = new Set(builtinModules);

/** Why `specifier` may not be imported, or undefined when it may. */
function refusal(specifier) {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier)) return 'Node builtin';
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (FRAMEWORKS.has(name)) return 'framework package';
  return undefined;
}

const seen = new Set();
const queue = process.argv.slice(2).map((file) => pathToFileURL(file).href);
const refused = [];
const unresolved = [];
while (queue.length > 0) {
  const url = queue.pop();
  if (seen.has(url)) continue;
  seen.add(url);
  const text = readFileSync(fileURLToPath(url), 'utf8');
  // Static imports, re-exports, `import('literal')` and `require('literal')`.
  for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
    const why = refusal(specifier);
    if (why) {
      refused.push({ from: fileURLToPath(url), specifier, why });
      continue;
    }
    let resolved;
    try {
      resolved = import.meta.resolve(specifier, url);
    } catch (error) {
      unresolved.push({ from: fileURLToPath(url), specifier, error: String(error?.message ?? error) });
      continue;
    }
    if (resolved.startsWith('file:') && /\.[cm]?js$/.test(resolved)) queue.push(resolved);
  }
}
process.stdout.write(JSON.stringify({ loaded: [...seen].map((u) => fileURLToPath(u)), refused, unresolved }));
