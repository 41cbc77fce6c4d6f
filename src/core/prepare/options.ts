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
  /**
   * What a choosing mount (`projection: 'auto'`, a function, `{ choose, serve }`) does with a tool that one of
   * its projections other than the default cannot serve, i.e. whose document that projection's own check
   * refuses (a `z.record()` under `openai-strict`, `z.any()` under `gemini`):
   * - `'fall-back'` (default): that family alone is served the default projection's document if its check
   *   accepts it, else the tool is left out for that family; a `projection-fallback` warning says which, logged
   *   once at construction; the mount starts.
   * - `'fail'`: the errors stand, so `policy: 'throw'` fails the mount.
   * Under every setting, and under `policy: 'warn'` and `'skip'` too, no family is served a document its own
   * profile's check refuses (docs/decisions/0019-auto-starts-on-what-flat-serves.md).
   */
  projectionErrors?: 'fall-back' | 'fail';
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
 * Which projections a choosing mount computes, probes and serves: `projection: { choose, serve }`
 * (docs/decisions/0016-options-grouped-by-concern.md).
 *
 * @example `{ projection: { choose: 'auto', serve: ['flat', 'cursor', 'anthropic'] } }`
 */
export interface ProjectionOptions {
  /** How a `tools/list` picks: `'auto'` (by `autoProjection`), or a function of the client's identity and request. */
  choose: 'auto' | ProjectionChooser;
  /**
   * The projections the mount computes, probes and serves, in order (repeats dropped). Under `'auto'`, a
   * client whose table row names a projection left out here gets `flat` (always served); a function must
   * return one of these. A tool one of these cannot serve is served that family the default document its
   * check accepts, or left out for it (`schemaValidation.projectionErrors`).
   * @throws TypeError at construction when empty or naming anything but a projection.
   */
  serve: readonly ProjectionName[];
}

/** The `projection` option: one projection, `'auto'`, a function, or `{ choose, serve }`. */
export type ProjectionOption = ProjectionName | 'auto' | ProjectionChooser | ProjectionOptions;

/** The options `settlePrepare` reads: the projection (or its shorthand), when it is prepared, and the checks. */
export interface ProjectionSettings {
  flattenUnionInput?: boolean;
  projection?: ProjectionOption;
  prepareProjections?: 'on-first-use' | 'at-startup';
  schemaValidation?: SchemaValidationOptions;
}
