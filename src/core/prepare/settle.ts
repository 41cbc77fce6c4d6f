/**
 * The options that decide the served documents (`projection` or `flattenUnionInput`, `prepareProjections`,
 * `schemaValidation`), settled once per mount into the `PreparePolicy` the preparation, the startup policy
 * and each `tools/list`'s choice take.
 */
import { isProjectionName, PROJECTION_NAMES, type ProjectionName } from '../projection/names.js';
import { booleanOption, optionKeys, stringList } from '../settle/checks.js';
import { AUTO_PROJECTIONS, autoProjection, type ClientIdentity, type ProjectionChooser } from './client-identity.js';
import type { ProjectionSettings, SchemaValidationOptions } from './options.js';

/** What `projection: 'auto'` can answer besides `flat`. */
const AUTO_TARGETS = AUTO_PROJECTIONS.map((rule) => rule.projection);
const POLICIES = ['throw', 'warn', 'skip'] as const;
const PROJECTION_ERRORS = ['fall-back', 'fail'] as const;
const PREPARE_PROJECTIONS = ['on-first-use', 'at-startup'] as const;

/** The keys `schemaValidation` takes: one list, tied to `SchemaValidationOptions` by the compiler. */
export const SCHEMA_VALIDATION_KEYS = optionKeys<SchemaValidationOptions>()([
  'policy',
  'projectionErrors',
  'profiles',
  'requireTypedProperties',
  'allowUntyped',
  'requirePortableFormats',
  'allowFormats',
]);

/** The probe's options, with `policy` defaulted to `'throw'` and every list copied and frozen. */
export type ValidationPolicy = Readonly<SchemaValidationOptions> & {
  readonly policy: (typeof POLICIES)[number];
  readonly projectionErrors: (typeof PROJECTION_ERRORS)[number];
};

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
  /**
   * `prepareProjections`: when the projections other than `default` are computed and probed (`default` always
   * at construction). Default `'on-first-use'`.
   */
  readonly prepare: (typeof PREPARE_PROJECTIONS)[number];
  /** Per `tools/list`, when the choice depends on the client. */
  readonly choose?: ProjectionChooser;
}

/**
 * Settles what decides the served documents.
 * @throws TypeError for a projection, a `prepareProjections` or a `schemaValidation` value that names nothing.
 * @example `settlePrepare({ projection: 'auto', schemaValidation: { profiles: ['gemini'] } })`
 */
export function settlePrepare(options: ProjectionSettings): PreparePolicy {
  return Object.freeze({
    projection: settleProjection(options),
    validation: settleValidation(options.schemaValidation),
  });
}

/** `schemaValidation`, with `policy` defaulted to `'throw'` and every list copied and frozen. */
function settleValidation(validation: SchemaValidationOptions = {}): ValidationPolicy {
  const policy = validation.policy ?? 'throw';
  if (!POLICIES.includes(policy)) {
    throw new TypeError(
      `mcp-mount: schemaValidation.policy must be one of ${POLICIES.join(', ')}, got ${String(policy)}`,
    );
  }
  const projectionErrors = validation.projectionErrors ?? 'fall-back';
  if (!PROJECTION_ERRORS.includes(projectionErrors)) {
    throw new TypeError(
      `mcp-mount: schemaValidation.projectionErrors must be one of ${PROJECTION_ERRORS.join(', ')}, got ${String(projectionErrors)}`,
    );
  }
  const list = (values: readonly string[]) => Object.freeze(stringList('schemaValidation', values)) as string[];
  return Object.freeze({
    policy,
    projectionErrors,
    ...(validation.profiles && { profiles: list(validation.profiles) }),
    ...(validation.requireTypedProperties !== undefined && {
      requireTypedProperties: validation.requireTypedProperties,
    }),
    ...(validation.allowUntyped && { allowUntyped: list(validation.allowUntyped) }),
    ...(validation.requirePortableFormats !== undefined && {
      requirePortableFormats: validation.requirePortableFormats,
    }),
    ...(validation.allowFormats && { allowFormats: list(validation.allowFormats) }),
  });
}

/**
 * `projection` and its shorthand `flattenUnionInput`, and `prepareProjections`.
 * @throws TypeError for a value that names nothing.
 */
function settleProjection(options: ProjectionSettings): ProjectionPolicy {
  const prepare = options.prepareProjections ?? 'on-first-use';
  if (!PREPARE_PROJECTIONS.includes(prepare)) {
    throw new TypeError(
      `mcp-mount: prepareProjections must be ${PREPARE_PROJECTIONS.map((p) => `'${p}'`).join(' or ')}, got ${String(prepare)}`,
    );
  }
  return frozenPolicy({ ...projectionChoice(options), prepare });
}

/** `projection` and its shorthand `flattenUnionInput`, settled. */
function projectionChoice(options: ProjectionSettings): Omit<ProjectionPolicy, 'prepare'> {
  const { projection, flattenUnionInput } = options;
  booleanOption('flattenUnionInput', flattenUnionInput);
  if (projection === undefined) {
    const only: ProjectionName = flattenUnionInput ? 'flat' : 'faithful';
    return { default: only, served: [only] };
  }
  if (flattenUnionInput === true && projection !== 'flat') {
    throw new TypeError(
      "mcp-mount: flattenUnionInput: true is shorthand for projection: 'flat'; give projection alone",
    );
  }
  if (typeof projection === 'object' && projection !== null) {
    return choosing(projection.choose, servedProjections(projection.serve));
  }
  if (projection === 'auto' || typeof projection === 'function') return choosing(projection);
  if (!isProjectionName(projection)) {
    throw new TypeError(
      `mcp-mount: projection must be 'auto', a function, { choose, serve }, or one of ${PROJECTION_NAMES.join(', ')}; got ${String(projection)}`,
    );
  }
  return { default: projection, served: [projection] };
}

/**
 * A choosing policy: `'auto'` among `flat` and its targets, a function among every projection, or either
 * among `listed` (`projection.serve`).
 */
function choosing(choose: unknown, listed?: ProjectionName[]): Omit<ProjectionPolicy, 'prepare'> {
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
