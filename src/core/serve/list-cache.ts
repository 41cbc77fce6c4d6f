/**
 * The bytes of `tools/list` entries, built once per mount for each (projection, era) a request asks for, and
 * never parsed again: per request only the choice of entries remains (docs/decisions/0025-cached-tools-list.md).
 */
import type { McpRequestContext } from '@modelcontextprotocol/server';
import { type GzipStart, gzipStart, zlib } from '../http/gzip.js';
import type { ProjectionName } from '../projection/names.js';
import type { Registration } from './registration.js';
import { sdkEntry } from './sdk/tool-entry.js';

/** The era a request's server serves: `modern` (2026-07-28) or `legacy` (2025). */
export type Era = McpRequestContext['era'];

/** One (projection, era)'s entries, as UTF-8 JSON. */
export interface ListEntries {
  /**
   * The entries of the tools `visible` holds (a subset, in the mount's order), joined by commas: the chunks to
   * send, in order. Every listed tool: the one prebuilt buffer. A subset in a few runs of neighbours: views of
   * it (no copy). Else one buffer of the visible entries, copied once.
   */
  join(visible: readonly Registration[]): readonly Uint8Array[];
  /**
   * False once the buffer has been emptied: a reader of a response that transferred a chunk's memory (a byte
   * stream's `enqueue`, `postMessage` with transfer) detaches the one buffer every list sends.
   */
  intact(): boolean;
  /**
   * The gzip start (http/gzip.ts) of `head` followed by the entries of `visible`: deflated on the first list
   * that asks for this (head, visible set), then kept beside the entries. Undefined where the runtime has no
   * zlib, or once `MAX_GZIPPED` starts are kept (a list for a further visible set is sent uncompressed rather
   * than deflated per request).
   */
  gzipped(visible: readonly Registration[], head: string): GzipStart | undefined;
}

const encoder = new TextEncoder();

/**
 * A subset shown as more runs than this is copied into one buffer: workerd hands each chunk of a response
 * stream from JS to its own side, which for hundreds of chunks costs more than the copy.
 */
const MAX_VIEWS = 8;

/**
 * The gzip starts one (projection, era) keeps: one per SDK head (JSON, SSE) and visible set. A start is small
 * (2.3 KB for 148 KB of entries), but each costs one deflate of its entries; per-caller sets beyond these are
 * sent uncompressed.
 */
const MAX_GZIPPED = 16;

/**
 * The entries of one (projection, era), built from every registration its projection lists, kept as one
 * buffer (each entry a span of it, the commas between them included). The buffer is what every full list
 * sends, never copied: in workerd, a body made per request from 2.4 MB of parts (a `Blob` of them, a string)
 * is copied into fresh memory and costs several times the send itself. Chunks are the cache's own bytes:
 * nothing may write into a response's chunks (no reader of a body does); one transferred is noticed by
 * `intact`, and the entries built again. A filtered list's views are of the whole buffer: only the view's
 * bytes are the body, and code beside the mount that serialised a chunk's `.buffer` would send every entry.
 */
export function listEntries(registrations: readonly Registration[], projection: ProjectionName, era: Era): ListEntries {
  const encoded: Uint8Array[] = [];
  const index = new Map<Registration, number>();
  for (const r of registrations) {
    const documents = r.listed(projection);
    if (!documents) continue;
    index.set(r, encoded.length);
    encoded.push(encoder.encode(JSON.stringify(sdkEntry(r.name, r.tool, documents, era))));
  }
  // Only the joined buffer and each entry's span in it are kept.
  const { bytes, starts, ends } = joined(encoded);
  const span = (first: number, last: number) => bytes.subarray(starts[first], ends[last]);
  const every = [bytes];
  const length = bytes.byteLength;
  const gzipStarts = new Map<string, GzipStart>();
  const entries: ListEntries = {
    intact: () => bytes.byteLength === length,
    gzipped(visible, head) {
      const found = zlib();
      if (!found) return undefined;
      // The head is the SDK's constant text before the entries; the key names the visible tools by position.
      const key = `${visible.length === index.size ? '*' : visible.map((r) => index.get(r)).join(',')} ${head}`;
      const known = gzipStarts.get(key);
      if (known || gzipStarts.size >= MAX_GZIPPED) return known;
      const start = gzipStart([encoder.encode(head), ...entries.join(visible)], found);
      gzipStarts.set(key, start);
      return start;
    },
    join(visible) {
      // The visible tools are a subset of the listed ones: as many means the same, served prebuilt.
      if (visible.length === index.size) return every;
      const runs = runsOf(visible.map((r) => index.get(r)!));
      if (runs && runs.length <= MAX_VIEWS) {
        // A later run starts at the comma before it in the buffer: entries run in the mount's order.
        return runs.map(([first, last], i) =>
          i > 0 ? bytes.subarray(starts[first]! - 1, ends[last]) : span(first, last),
        );
      }
      const entry = (r: Registration) => span(index.get(r)!, index.get(r)!);
      return [joined(visible.map(entry)).bytes];
    },
  };
  return entries;
}

/** `parts` in one buffer, joined by commas, and where each part starts and ends in it. */
function joined(parts: readonly Uint8Array[]): { bytes: Uint8Array; starts: number[]; ends: number[] } {
  let length = Math.max(parts.length - 1, 0);
  for (const part of parts) length += part.byteLength;
  const bytes = new Uint8Array(length);
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (i > 0) bytes[at++] = COMMA;
    starts.push(at);
    bytes.set(part, at);
    at += part.byteLength;
    ends.push(at);
  }
  return { bytes, starts, ends };
}

const COMMA = 0x2c;

/** The runs of consecutive numbers in `indices`, as [first, last]; undefined unless they ascend. */
function runsOf(indices: readonly number[]): Array<[number, number]> | undefined {
  const runs: Array<[number, number]> = [];
  for (const i of indices) {
    const run = runs.at(-1);
    if (run && i <= run[1]) return undefined;
    if (run && i === run[1] + 1) run[1] = i;
    else runs.push([i, i]);
  }
  return runs;
}
