/**
 * What a mount checks build-time documents against at startup (docs/decisions/0032-documents-verified-at-build.md):
 * per tool, the top-level keys of each slice; per mount, the versions and the options that shape every
 * document. Read from the tools' public Zod definitions only, without running any code of the user's schemas
 * (no default factory, no transform, no lazy getter): cheap at a Worker's startup. A change below the top
 * level is what `mcp-mount check --verify` catches, in CI and in the build.
 */
// The version from Zod's core module itself: `z.core.version` would keep all of `z.core`, Zod's locales
// included, in a Worker's bundle.
import { version as zodVersion } from 'zod/v4/core';
import type { ExtendOption } from '../model/extend.js';
import type { AnyTool } from '../model/tool.js';
import type { ProjectionName } from '../projection/names.js';
import { shapeKeys } from '../zod/shape-keys.js';
import { MCP_MOUNT_VERSION } from './package-version.js';

/** What of a mount's options shapes its documents, as the documents concern reads them. */
export interface DocumentsShape {
  readonly projections: {
    readonly default: ProjectionName;
    readonly served: readonly ProjectionName[];
    /** What a family whose own document fails its check gets (`projection.errors`): it decides documents. */
    readonly errors?: string;
  };
  /** The probe's options (`schemaValidation`); `policy` is left out of the stamp (it decides no document). */
  readonly validation: Readonly<Record<string, unknown>>;
  readonly extend?: ExtendOption;
}

/**
 * A tool's stamp: the top-level keys its `params`, `input` and `output` declare (every variant's, for a
 * union), and whether the mount's `extend` applies to it, as one JSON text. Two stamps are equal exactly when
 * those are.
 *
 * @throws what `extend.filter` throws
 * @example `toolStamp(tool, mount.extend) // '[["id"],["text","kind"],null,false]'`
 */
export function toolStamp(tool: AnyTool, extend: ExtendOption | undefined): string {
  const keys = (schema: unknown) => (schema === undefined ? null : shapeKeys(schema));
  const extended = extend !== undefined && (extend.filter?.(tool) ?? true);
  return JSON.stringify([keys(tool.params), keys(tool.input), keys(tool.output), extended]);
}

/** The parts of a tool's stamp, named as a stale reason names them, in `toolStamp`'s order. */
export const STAMP_PARTS = ['params', 'input', 'output', 'extend'] as const;

/** The names of the parts in which two tool stamps differ, e.g. `['input']`. */
export function changedParts(before: string, after: string): Array<(typeof STAMP_PARTS)[number]> {
  const parse = (stamp: string): unknown[] => {
    try {
      const parts = JSON.parse(stamp);
      return Array.isArray(parts) ? parts : [];
    } catch {
      return [];
    }
  };
  const [a, b] = [parse(before), parse(after)];
  return STAMP_PARTS.filter((_, i) => JSON.stringify(a[i]) !== JSON.stringify(b[i]));
}

/**
 * What shapes every document of a mount, part by part so that a mismatch can be named: mcp-mount's own version
 * (a release can project or probe the same schema differently), the Zod version (a release can change what
 * `toJSONSchema` emits), the projections served, the default and `projection.errors`, the `schemaValidation`
 * options but `policy`,
 * and `extend`'s keys.
 */
export interface OptionsStamp {
  readonly mount: string;
  readonly zod: string;
  readonly projections: string;
  readonly validation: string;
  readonly extend: string;
}

/**
 * The options stamp of a mount.
 * @example `optionsStamp({ projections: { default: 'flat', served: ['flat'] }, validation: {} }).projections // 'flat:flat'`
 */
export function optionsStamp(shape: DocumentsShape): OptionsStamp {
  const { major, minor, patch } = zodVersion;
  const { default: byDefault, served, errors } = shape.projections;
  const validation = Object.keys(shape.validation)
    .filter((key) => key !== 'policy' && shape.validation[key] !== undefined)
    .sort()
    .map((key) => [key, shape.validation[key]]);
  return {
    mount: MCP_MOUNT_VERSION,
    zod: `${major}.${minor}.${patch}`,
    projections: `${byDefault}:${served.join(',')}${served.length > 1 && errors ? `:${errors}` : ''}`,
    validation: JSON.stringify(validation),
    extend: shape.extend ? JSON.stringify(shapeKeys(shape.extend.schema)) : '-',
  };
}
