/** Zod's internals (`schema._zod`) are read in one folder, so a Zod upgrade that moves them is fixed there. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');
const ZOD_FOLDER = 'core/zod/';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('Zod internals', () => {
  it('are read only under src/core/zod/', () => {
    const readers = sourceFiles(SRC).flatMap((file) => {
      const path = relative(SRC, file).split('\\').join('/');
      if (path.startsWith(ZOD_FOLDER)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.includes('_zod') ? [`${path}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(readers).toEqual([]);
  });
});
