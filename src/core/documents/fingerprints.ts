/**
 * What build-time documents are checked against at mount: per tool, a fingerprint of everything its served
 * documents and its probe verdict are computed from; per mount, the options that shape every document
 * (docs/decisions/0024-build-time-documents.md). No conversion, projection or probe runs here.
 */
// The version from Zod's core module itself: `z.core.version` would keep all of `z.core`, Zod's locales
// included, in a Worker's bundle.
import type * as z from 'zod';
import { version as zodVersion } from 'zod/v4/core';
import type { AnyTool } from '../model/tool.js';
import type { MountConfig } from '../serve/config.js';
import { type Fingerprinter, fingerprinter } from '../zod/fingerprint.js';
import { MCP_MOUNT_VERSION } from './package-version.js';

/**
 * The parts of a tool's fingerprint, in the order `toolFingerprint` joins them, each named as a stale reason
 * names it. `fields` are the tool's fields the probe checks (`checkToolNames`, `checkToolScopes`,
 * `checkToolFields`) and whether the mount's `extend` applies to it; `description` and the handler are served
 * or run as they are and checked by nothing, so they are left out.
 */
export const FINGERPRINT_PARTS = ['params', 'input', 'output', 'fields'] as const;

/** Read by `toolFingerprint` under `fields`. */
const CHECKED_FIELDS = ['name', 'title', 'scopes', 'icons', 'annotations', '_meta', 'execution'] as const;

/**
 * A tool's fingerprint: four 16-hex-digit hashes joined by `.` (params, input, output, checked fields), `-`
 * for a slice the tool lacks. Pass one `fp` for every tool of a mount, so a schema they share is walked once.
 *
 * @throws what the tool's schemas throw when read (a shape getter, a `z.lazy` getter) or `extend.filter` throws
 * @example
 * ```ts
 * const fp = fingerprinter();
 * const prints = tools.map((tool) => toolFingerprint(tool, config, fp));
 * ```
 */
export function toolFingerprint(tool: AnyTool, config: MountConfig, fp: Fingerprinter = fingerprinter()): string {
  const slice = (schema: unknown) => (schema === undefined ? '-' : fp.schema(schema as z.core.$ZodType));
  const extend = config.extend !== undefined && (config.extend.filter?.(tool) ?? true);
  const fields: Record<string, unknown> = { extend };
  for (const key of CHECKED_FIELDS) fields[key] = (tool as unknown as Record<string, unknown>)[key];
  return [slice(tool.params), slice(tool.input), slice(tool.output), fp.value(fields)].join('.');
}

/** The names of the parts in which two tool fingerprints differ, e.g. `['input']`. */
export function changedParts(before: string, after: string): Array<(typeof FINGERPRINT_PARTS)[number]> {
  const [a, b] = [before.split('.'), after.split('.')];
  return FINGERPRINT_PARTS.filter((_, i) => a[i] !== b[i]);
}

/**
 * What shapes every document of a mount, part by part so that a mismatch can be named: mcp-mount's own
 * version (a release can project or probe the same schema differently), the Zod version (a release can change
 * what `toJSONSchema` emits), the projections served and the default, the
 * `schemaValidation` options but `policy` (they decide the checks and the fallback documents; `policy` only
 * what a mount does with errors, and documents are only built without any), and `extend`'s schema.
 */
export interface OptionsFingerprint {
  readonly mount: string;
  readonly zod: string;
  readonly projections: string;
  readonly validation: string;
  readonly extend: string;
}

/**
 * The options fingerprint of a settled configuration.
 *
 * @example
 * ```ts
 * optionsFingerprint(settleOptions({ flattenUnionInput: true })).projections; // 'flat:flat'
 * ```
 */
export function optionsFingerprint(config: MountConfig, fp: Fingerprinter = fingerprinter()): OptionsFingerprint {
  const { major, minor, patch } = zodVersion;
  const { policy: _policy, ...validation } = config.prepare.validation;
  const { default: byDefault, served } = config.prepare.projection;
  return {
    mount: MCP_MOUNT_VERSION,
    zod: `${major}.${minor}.${patch}`,
    projections: `${byDefault}:${served.join(',')}`,
    validation: fp.value(validation),
    extend: config.extend ? fp.schema(config.extend.schema) : '-',
  };
}
