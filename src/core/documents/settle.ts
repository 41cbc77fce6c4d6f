/** The `documents` option, settled once per mount into the `DocumentsPolicy` the documents' preparation reads. */
import { oneOf, optionKeys } from '../settle/checks.js';
import type { DocumentsOptions } from './options.js';

/**
 * The keys `documents` takes in its object form: one list, tied to `DocumentsOptions` by the compiler.
 * @internal exported for its tests alone
 */
export const DOCUMENTS_KEYS = optionKeys<DocumentsOptions>()(['module', 'stale']);

/** Build-time documents and what a stale tool gets. Frozen. */
export interface DocumentsPolicy {
  /** The module's default export, as given. */
  readonly module: unknown;
  /** Default `'fail'`. */
  readonly stale: 'fail' | 'prepare';
}

/**
 * Settles `documents`: a documents module (an object with `format`), or `{ module, stale }`.
 * @returns undefined without documents.
 * @throws TypeError for a `stale` that names nothing, or a key the object form does not take.
 * @example `settleDocuments({ module: documents, stale: 'prepare' })`
 */
export function settleDocuments(documents: unknown): DocumentsPolicy | undefined {
  if (documents === undefined) return undefined;
  if (!isObjectForm(documents)) return Object.freeze({ module: documents, stale: 'fail' });
  for (const key of Object.keys(documents)) {
    if (!(DOCUMENTS_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(`mcp-mount: documents.${key} is not an option; documents takes ${DOCUMENTS_KEYS.join(', ')}`);
    }
  }
  const stale = oneOf('documents.stale', documents.stale, ['fail', 'prepare'] as const, 'fail');
  return Object.freeze({ module: documents.module, stale });
}

/** `{ module, ... }`: an object that holds a module rather than being one (a module has a `format`). */
function isObjectForm(value: unknown): value is DocumentsOptions {
  return typeof value === 'object' && value !== null && 'module' in value && !('format' in value);
}
