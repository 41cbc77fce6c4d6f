/**
 * The options that decide the served documents (`projection` or its shorthand `flattenUnionInput`, and
 * `schemaValidation`), settled once per mount into the `PreparePolicy` the preparation, the startup policy
 * and each `tools/list`'s choice take.
 */
import { isProjectionName, PROJECTION_NAMES, type ProjectionName } from '../projection/names.js';
import { booleanOption, oneOf, optionGroup, optionKeys, stringList } from '../settle/checks.js';
import { AUTO_PROJECTIONS, autoProjection, type ClientIdentity, type ProjectionChooser } from './client-identity.js';
import type { ProjectionOptions, ProjectionSettings, SchemaValidationOptions } from './options.js';

/** What `projection: 'auto'` can answer besides `flat`. */
const AUTO_TARGETS = AUTO_PROJECTIONS.map((rule) => rule.projection);

/**
 * The keys `schemaValidation` takes: one list, tied to `SchemaValidationOptions` by the compiler.
 * @internal exported for its tests alone
 */
export const SCHEMA_VALIDATION_KEYS = optionKeys<SchemaValidationOptions>()([
  'policy',
  'profiles',
  'requireTypedProperties',
  'allowUntyped',
  'requirePortableFormats',
  'allowFormats',
]);

/**
 * The keys `projection` takes in its object form: one list, tied to `ProjectionOptions` by the compiler.
 * @internal exported for its tests alone
 */
export const PROJECTION_KEYS = optionKeys<ProjectionOptions>()(['choose', 'serve', 'prepare', 'errors']);

/** The probe's options, with `policy` defaulted to `'throw'` and every list copied and frozen. */
type ValidationPolicy = Readonly<SchemaValidationOptions> & { readonly policy: 'throw' | 'warn' | 'skip' };

/** What decides the served documents: the projection policy and the probe's options. Frozen. */
export interface PreparePolicy {
  readonly projection: ProjectionPolicy;
  readonly validation: ValidationPolicy;
}

/** Which documents a mount serves, and how a `tools/list` picks one. */
export interface ProjectionPolicy {
  /** What `report.tools` shows and what a fixed choice serves: the option's name; `flat` for 'auto' or a function. */
  readonly default: ProjectionName;
  /** Every projection a request can be served; `default` first. */
  readonly served: readonly ProjectionName[];
  /** When the projections other than `default` are computed and probed. Default `'on-first-use'`. */
  readonly prepare: 'on-first-use' | 'at-startup';
  /** What a family whose own document fails its check gets. Default `'fall-back'`. */
  readonly errors: 'fall-back' | 'fail';
  /** Per `tools/list`, when the choice depends on the client. */
  readonly choose?: ProjectionChooser;
}

/**
 * Settles what decides the served documents.
 * @throws TypeError for a `projection` or `schemaValidation` value that names nothing, or a key they do not take.
 * @example `settlePrepare({ projection: 'auto', schemaValidation: { profiles: ['gemini'] } })`
 */
export function settlePrepare(options: ProjectionSettings): PreparePolicy {
  return Object.freeze({
    projection: settleProjection(options),
    validation: settleValidation(optionGroup('schemaValidation', options.schemaValidation, SCHEMA_VALIDATION_KEYS)),
  });
}

/** `schemaValidation`, with `policy` defaulted to `'throw'` and every list copied and frozen. */
function settleValidation(validation: SchemaValidationOptions): ValidationPolicy {
  const policy = oneOf('schemaValidation.policy', validation.policy, ['throw', 'warn', 'skip'] as const, 'throw');
  for (const key of ['requireTypedProperties', 'requirePortableFormats'] as const) {
    booleanOption(`schemaValidation.${key}`, validation[key]);
  }
  const list = (key: 'profiles' | 'allowUntyped' | 'allowFormats') =>
    validation[key] && { [key]: Object.freeze(stringList(`schemaValidation.${key}`, validation[key])) };
  return Object.freeze({
    policy,
    ...list('profiles'),
    ...(validation.requireTypedProperties !== undefined && {
      requireTypedProperties: validation.requireTypedProperties,
    }),
    ...list('allowUntyped'),
    ...(validation.requirePortableFormats !== undefined && {
      requirePortableFormats: validation.requirePortableFormats,
    }),
    ...list('allowFormats'),
  }) as ValidationPolicy;
}

/** `projection` and its shorthand `flattenUnionInput`. @throws TypeError for a value that names nothing. */
function settleProjection(options: ProjectionSettings): ProjectionPolicy {
  const { projection, flattenUnionInput } = options;
  booleanOption('flattenUnionInput', flattenUnionInput);
  const single = (only: ProjectionName): ProjectionPolicy =>
    frozenPolicy({ default: only, served: [only], prepare: 'on-first-use', errors: 'fall-back' });
  if (projection === undefined) return single(flattenUnionInput ? 'flat' : 'faithful');
  if (flattenUnionInput === true && projection !== 'flat') {
    throw new TypeError(
      "mcp-mount: flattenUnionInput: true is shorthand for projection: 'flat'; give projection alone",
    );
  }
  if (typeof projection === 'object' && projection !== null) return choosingObject(projection);
  if (projection === 'auto' || typeof projection === 'function') {
    return frozenPolicy({ ...choosing(projection), prepare: 'on-first-use', errors: 'fall-back' });
  }
  if (!isProjectionName(projection)) {
    throw new TypeError(
      `mcp-mount: projection must be 'auto', a function, { choose, serve, prepare, errors }, or one of ${PROJECTION_NAMES.join(', ')}; got ${String(projection)}`,
    );
  }
  return single(projection);
}

/** `projection: { choose, serve, prepare, errors }`. */
function choosingObject(given: ProjectionOptions): ProjectionPolicy {
  const options = optionGroup<ProjectionOptions>('projection', given, PROJECTION_KEYS);
  const prepare = oneOf('projection.prepare', options.prepare, ['on-first-use', 'at-startup'] as const, 'on-first-use');
  const errors = oneOf('projection.errors', options.errors, ['fall-back', 'fail'] as const, 'fall-back');
  const listed = options.serve === undefined ? undefined : servedProjections(options.serve);
  return frozenPolicy({ ...choosing(options.choose, listed), prepare, errors });
}

/**
 * A choosing policy: `'auto'` among `flat` and its targets, a function among every projection, or either
 * among `listed` (`projection.serve`).
 */
function choosing(choose: unknown, listed?: ProjectionName[]): Pick<ProjectionPolicy, 'default' | 'served' | 'choose'> {
  if (typeof choose === 'function') {
    const served = listed ?? ['flat', ...PROJECTION_NAMES.filter((n) => n !== 'flat')];
    const pick = choose as ProjectionChooser;
    return { default: served.includes('flat') ? 'flat' : served[0]!, served, choose: pick };
  }
  if (choose !== 'auto') {
    throw new TypeError(`mcp-mount: projection.choose must be 'auto' or a function, got ${String(choose)}`);
  }
  const served = [...new Set<ProjectionName>(['flat', ...(listed ?? AUTO_TARGETS)])];
  // A row naming a projection left out falls back to flat, the superset every client takes.
  const pick = (client: ClientIdentity): ProjectionName => {
    const chosen = autoProjection(client);
    return served.includes(chosen) ? chosen : 'flat';
  };
  return { default: 'flat', served, choose: pick };
}

function frozenPolicy(policy: ProjectionPolicy): ProjectionPolicy {
  Object.freeze(policy.served);
  return Object.freeze(policy);
}

/** `projection.serve`, checked and without repeats. */
function servedProjections(value: unknown): ProjectionName[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isProjectionName)) {
    throw new TypeError(
      `mcp-mount: projection.serve must be a non-empty array of ${PROJECTION_NAMES.join(', ')}; got ${JSON.stringify(value)}`,
    );
  }
  return [...new Set(value)];
}
