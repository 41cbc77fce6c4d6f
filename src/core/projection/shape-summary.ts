import { isPlainObject } from '../json-schema/types.js';
import { type RefResolver, type TypeAtom, typeAtoms } from './type-atoms.js';

// A few words for what a variant expects at a merged position, for the note a model reads beside the
// merged schema: `{ sku, qty }`, `array of strings`, `"fast" | "slow"`, `string | null`. Shallow on
// purpose: the merged schema below carries the detail, the note only has to tell the variants apart.

/** The summary of `schema`: its types, with an object's keys and an array's items named; `any` or `nothing`. */
export function summarize(schema: unknown, resolve: RefResolver): string {
  return describe(typeAtoms(schema, resolve), resolve, 0);
}

function describe(atoms: TypeAtom[] | 'any', resolve: RefResolver, depth: number): string {
  if (atoms === 'any') return 'any';
  if (atoms.length === 0) return 'nothing';
  return [...new Set(atoms.flatMap((atom) => atomWords(atom, resolve, depth)))].join(' | ');
}

function atomWords(atom: TypeAtom, resolve: RefResolver, depth: number): string[] {
  const { type, fragment } = atom;
  const pinned = 'const' in fragment ? [fragment.const] : Array.isArray(fragment.enum) ? fragment.enum : undefined;
  if (pinned && type !== 'object' && type !== 'array') return pinned.map((v) => JSON.stringify(v));
  if (type === 'object') {
    const keys = isPlainObject(fragment.properties) ? Object.keys(fragment.properties) : [];
    return [keys.length > 0 ? `{ ${keys.join(', ')} }` : 'object'];
  }
  if (type !== 'array' || depth > 0) return [type];
  if (Array.isArray(fragment.prefixItems)) {
    const rest = fragment.items === false || fragment.items === undefined ? [] : ['...'];
    const slots = fragment.prefixItems.map((item: unknown) => describe(typeAtoms(item, resolve), resolve, 1));
    return [`[${[...slots, ...rest].join(', ')}]`];
  }
  if (fragment.items === undefined) return ['array'];
  const items = typeAtoms(fragment.items, resolve);
  if (items === 'any') return ['array'];
  const words = [...new Set(items.flatMap((a) => atomWords(a, resolve, 1)))].map(plural);
  return [`array of ${words.length === 1 ? words[0] : `(${words.join(' | ')})`}`];
}

/** `string` → `strings`; shapes and literals stay as they are. */
function plural(word: string): string {
  return /^[a-z]+$/.test(word) ? `${word}s` : word;
}
