/**
 * No accessor (`get x()` / `set x()`) in an object literal anywhere in `src/`, but where an object is made once
 * per mount. Each evaluation of such a literal makes a new accessor function, so V8 gives the object a hidden
 * class of its own, held in the old generation; what the accessor's closure reaches (for a call: its request,
 * its message, every closure of the call) then survives every young collection until a full one. One such
 * literal per call doubled the young collections' cost of a call. A per-call accessor is a class's, or one
 * shared descriptor given to `Object.defineProperty` (`sharedAccessor`, serve/shared-accessor.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = join(ROOT, 'src');

/** Literal accessors made once per mount, with why that is so. */
const ONCE_PER_MOUNT: ReadonlyMap<string, string> = new Map([
  ['core/serve/handler.ts report', 'the handler object, one per mount'],
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every accessor written in an object literal, as `file name`. */
function literalAccessors(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) &&
      ts.isObjectLiteralExpression(node.parent)
    ) {
      found.push(`${relative(SRC, file)} ${node.name.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('object literals in src/', () => {
  const found = sources(SRC).flatMap(literalAccessors);

  it('carry no accessor, but in an object made once per mount', () => {
    expect(found.filter((at) => !ONCE_PER_MOUNT.has(at))).toEqual([]);
  });

  it('the list of accessors made once per mount names only ones that are there', () => {
    expect([...ONCE_PER_MOUNT.keys()].filter((at) => !found.includes(at))).toEqual([]);
  });

  it('the check finds an accessor in an object literal (and none in a class)', () => {
    const probe = join(ROOT, 'test/unit/layout/fixtures/accessors.ts');
    expect(literalAccessors(probe).map((at) => at.split(' ')[1])).toEqual(['inLiteral', 'setInLiteral']);
  });
});
