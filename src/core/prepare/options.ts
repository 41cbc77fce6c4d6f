/** The options that decide which `inputSchema` documents a mount serves and how the probe checks them. */
import type { ProjectionName } from '../projection/names.js';
import type { ProjectionChooser } from './client-identity.js';

/** Schema checks run at startup (`validateMcpSchemas` and every mount). See docs/design/probe.md. */
export interface SchemaValidationOptions {
  /**
   * `'throw'` (default): construction fails with one error listing every error-level issue.
   * `'warn'`: issues are logged; tools that cannot be served are left out, the rest are served.
   * `'skip'`: no report; tools that cannot be served are still left out (never half-registered).
   */
  policy?: 'throw' | 'warn' | 'skip';
  /** Client profiles to check against: `anthropic`, `openai-strict`, `gemini`, `cursor`, `local-grammar`. */
  profiles?: string[];
  /** Every property must carry `type`, `enum` or `const`. Default false. */
  requireTypedProperties?: boolean;
  /** Exemptions for `requireTypedProperties`: `'<tool>:<JSON pointer>'`. */
  allowUntyped?: string[];
  /** Only `format`s that common clients accept. Default false. */
  requirePortableFormats?: boolean;
  /** Extra formats to accept under `requirePortableFormats`. */
  allowFormats?: string[];
}

/**
 * A choosing mount: how each `tools/list` picks its projection, among which, when the others than the default
 * are prepared, and what a family whose own document fails its check gets
 * (docs/decisions/0014-per-client-projections.md, 0019, 0026).
 *
 * @example `{ projection: { choose: 'auto', serve: ['flat', 'cursor', 'anthropic'], prepare: 'at-startup' } }`
 */
export interface ProjectionOptions {
  /** How a `tools/list` picks: `'auto'` (by `autoProjection`), or a function of the client's identity and request. */
  choose: 'auto' | ProjectionChooser;
  /**
   * The projections the mount computes, probes and serves, in order (repeats dropped). Default: `flat` and every
   * `AUTO_PROJECTIONS` target under `'auto'`, every projection for a function. Under `'auto'`, a client whose
   * table row names a projection left out here gets `flat` (always served); a function must return one of these.
   * @throws TypeError at construction when empty or naming anything but a projection.
   */
  serve?: readonly ProjectionName[];
  /**
   * When the projections other than the default one are computed and probed
   * (docs/decisions/0026-projections-prepared-on-first-use.md):
   * - `'on-first-use'` (default): each when a request first needs it, once per mount (per isolate on a
   *   Worker). Its issues cannot fail the mount then: they are logged once (`observe.logger`; not under
   *   `schemaValidation.policy: 'skip'`), and a tool whose document fails that projection's check is served
   *   the default document or left out for it (`errors`). `mcp-mount check` and `validateMcpSchemas` prepare
   *   them all, so CI sees what a deploy would.
   * - `'at-startup'`: all at construction, where the policy applies to them (a long-lived server that wants
   *   every verdict before it serves).
   * The default projection (`flat`) is always prepared at construction.
   */
  prepare?: 'on-first-use' | 'at-startup';
  /**
   * What the mount does with a tool that one of its projections other than the default cannot serve, i.e.
   * whose document that projection's own check refuses (a `z.record()` under `openai-strict`, `z.any()` under
   * `gemini`):
   * - `'fall-back'` (default): that family alone is served the default projection's document if its check
   *   accepts it, else the tool is left out for that family; a `projection-fallback` warning says which, logged
   *   once at construction; the mount starts.
   * - `'fail'`: the errors stand, so `schemaValidation.policy: 'throw'` fails the mount.
   * Under every setting, and under `policy: 'warn'` and `'skip'` too, no family is served a document its own
   * profile's check refuses (docs/decisions/0019-auto-starts-on-what-flat-serves.md).
   */
  errors?: 'fall-back' | 'fail';
}

/** The `projection` option: one projection, `'auto'`, a function, or `{ choose, serve, prepare, errors }`. */
export type ProjectionOption = ProjectionName | 'auto' | ProjectionChooser | ProjectionOptions;

/** The options `settlePrepare` reads: the projection (or its shorthand) and the checks. */
export interface ProjectionSettings {
  flattenUnionInput?: boolean;
  projection?: ProjectionOption;
  schemaValidation?: SchemaValidationOptions;
}
