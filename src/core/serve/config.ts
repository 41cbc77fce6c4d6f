/**
 * Options settled once per mount: every later step (preparation, the probe's checks, serving each request)
 * reads this frozen, fully defaulted configuration, never the options the caller passed.
 */

import type { PerRequestResponseMode, ServerOptions } from '@modelcontextprotocol/server';
import { type AccessPolicy, settleAccess } from '../access/settle.js';
import type { CallPolicy } from '../arguments/call.js';
import { type ArgumentsPolicy, settleArguments } from '../arguments/settle.js';
import { type LimitsPolicy, settleLimits } from '../limits/settle.js';
import { closestKey } from '../messages/closest-key.js';
import type { ServerHook } from '../model/features.js';
import { type Observer, settleObserve } from '../observe/settle.js';
import {
  AUTO_PROJECTIONS,
  autoProjection,
  type ClientIdentity,
  type ProjectionChooser,
} from '../prepare/client-identity.js';
import { isProjectionName, PROJECTION_NAMES, type ProjectionName } from '../projection/names.js';
import { positiveInteger } from '../settle/positive-integer.js';
import type {
  AccessOptions,
  CallEvent,
  ErrorInfo,
  ExtendOption,
  LimitsOptions,
  McpMountOptions,
  ObserveOptions,
  ProtocolOptions,
  RefusalEvent,
  RepairOptions,
  SchemaValidationOptions,
  VisibilityContext,
  VisibleFeatures,
  VisibleTools,
} from './options.js';

/** What `projection: 'auto'` can answer besides `flat`. */
const AUTO_TARGETS = AUTO_PROJECTIONS.map((rule) => rule.projection);

const POLICIES = ['throw', 'warn', 'skip'] as const;
const PROJECTION_ERRORS = ['fall-back', 'fail'] as const;
const RESPONSE_MODES: readonly PerRequestResponseMode[] = ['auto', 'sse', 'json'];

/** The keys each group takes, to refuse a misspelt or misplaced one rather than ignore it. */
const GROUP_KEYS = {
  repair: ['json', 'scalars', 'nullAsAbsent', 'unknownKeys', 'injectedKeys', 'hygiene'],
  access: [
    'checkOrigin',
    'origins',
    'hosts',
    'cors',
    'auth',
    'visibleTools',
    'listUnauthorizedTools',
    'visibleFeatures',
  ],
  observe: ['onCall', 'onError', 'logger', 'redact', 'exposeErrors', 'onRefusal', 'openTelemetry'],
  limits: ['maxRequestBodyBytes', 'maxArgumentDepth', 'maxArgumentValues', 'timeoutMs', 'rate', 'concurrency'],
  protocol: ['logging', 'responseMode', 'requestState'],
} as const satisfies Record<string, readonly string[]>;
type Group = keyof typeof GROUP_KEYS;

/**
 * The 0.0 flat options and where each went in 0.1 (docs/decisions/0016-options-grouped-by-concern.md).
 * Refused, not ignored: a security option silently dropped (`allowedOrigins`) would be worse than a throw.
 */
export const REPLACED_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  coerceJsonArgs: 'repair.json',
  coerceScalarArgs: 'repair.scalars',
  nullAsAbsent: 'repair.nullAsAbsent',
  unknownKeys: 'repair.unknownKeys',
  injectedKeys: 'repair.injectedKeys',
  argumentHygiene: 'repair.hygiene',
  originCheck: 'access.checkOrigin',
  allowedOrigins: 'access.origins',
  allowedHosts: 'access.hosts',
  cors: 'access.cors',
  auth: 'access.auth',
  visibleTools: 'access.visibleTools',
  listUnauthorizedTools: 'access.listUnauthorizedTools',
  onCall: 'observe.onCall',
  onError: 'observe.onError',
  logger: 'observe.logger',
  redact: 'observe.redact',
  exposeErrors: 'observe.exposeErrors',
  maxRequestBodyBytes: 'limits.maxRequestBodyBytes',
  maxArgumentDepth: 'limits.maxArgumentDepth',
  maxArgumentValues: 'limits.maxArgumentValues',
  logging: 'protocol.logging',
  responseMode: 'protocol.responseMode',
  requestState: 'protocol.requestState',
  projections: 'projection: { choose, serve }',
  server: 'features',
});

/** What a mount runs with. Deep-frozen; built only by `settleOptions`. */
export interface MountConfig {
  /** Server identity sent in `initialize` / `server/discover`. */
  readonly server: { readonly name: string; readonly version: string; readonly instructions?: string };
  /** `projection` (or `flattenUnionInput`), settled. */
  readonly projection: ProjectionPolicy;
  /** `documents` and `staleDocuments` (default `'fail'`); undefined without documents. */
  readonly documents?: { readonly module: unknown; readonly stale: (typeof STALE_DOCUMENTS)[number] };
  readonly extend?: ExtendOption;
  /** The probe's options, with `policy` defaulted to `'throw'` and every list copied and frozen. */
  readonly validation: Readonly<SchemaValidationOptions> & {
    readonly policy: (typeof POLICIES)[number];
    readonly projectionErrors: (typeof PROJECTION_ERRORS)[number];
  };
  /** `repair`, settled: which repairs run, the unknown-key policy, markup hygiene. */
  readonly arguments: ArgumentsPolicy;
  /** `limits`, settled: the body and argument caps, timeouts, rate windows, the concurrency cap. */
  readonly limits: LimitsPolicy;
  /** `access`, settled: the Origin and Host checks, CORS, auth, visibility. */
  readonly access: AccessPolicy;
  /** `observe`, settled: what every concern reports through. */
  readonly observe: Observer;
  /** The `features` option: registers resources, prompts and the like on each per-request server. */
  readonly features?: ServerHook;
  /** `protocol.logging`: declare the logging capability on every per-request server. */
  readonly logging: boolean;
  /** `protocol.responseMode`, default `'auto'`. */
  readonly responseMode: PerRequestResponseMode;
  /** `protocol.requestState`, handed to every per-request server. */
  readonly requestState?: ServerOptions['requestState'];
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
 * Turns the caller's options into the mount's configuration: defaults filled in, lists copied (a caller
 * mutating its options object later changes nothing), the whole deep-frozen. One step per group.
 *
 * @throws TypeError naming the option when a value cannot mean anything: a 0.0 flat name (naming its
 *   replacement), a key a group does not take, a group that is not an object, `limits` not positive
 *   integers, an unknown `schemaValidation.policy`, `repair.unknownKeys` or `protocol.responseMode`,
 *   `repair.injectedKeys` that are not names, a switch that is not a boolean, a hook that is not a
 *   function, an `access.origins` or `access.hosts` entry that is not an origin or a hostname, an
 *   `access.auth` field that cannot mean anything, a `protocol.requestState` without a `verify` function.
 */
export function settleOptions(options: McpMountOptions<any> = {}): MountConfig {
  refuseReplaced(options as Record<string, unknown>);
  const repair = group(options, 'repair');
  const access = group(options, 'access');
  const observe = group(options, 'observe');
  const limits = group(options, 'limits');
  const protocol = group(options, 'protocol');
  const config: MountConfig = {
    server: settleIdentity(options),
    projection: settleProjection(options),
    ...documentsOf(options),
    ...(options.extend && { extend: Object.freeze({ ...options.extend }) }),
    validation: settleValidation(options.schemaValidation),
    arguments: settleArguments(repair),
    limits: settleLimits(limits, options.name ?? 'mcp-mount'),
    access: settleAccess(access),
    observe: settleObserve(observe),
    ...settleFeatures(options),
    ...settleProtocol(protocol),
  };
  return Object.freeze(config);
}

/** Refuses a 0.0 flat name with its replacement: `mcp-mount: coerceJsonArgs is repair.json since 0.1`. */
function refuseReplaced(options: Record<string, unknown>): void {
  for (const [name, replacement] of Object.entries(REPLACED_OPTIONS)) {
    if (options[name] !== undefined) throw new TypeError(`mcp-mount: ${name} is ${replacement} since 0.1`);
  }
  // A misspelt group (`acess: { auth }`) would otherwise start a mount without what it holds.
  for (const key of Object.keys(options)) {
    if (TOP_LEVEL_KEYS.includes(key) || key in REPLACED_OPTIONS) continue;
    const near = closestKey(key, TOP_LEVEL_KEYS);
    throw new TypeError(
      `mcp-mount: ${key} is not an option${near ? ` (did you mean ${near}?)` : ''}; the options are ${TOP_LEVEL_KEYS.join(', ')}`,
    );
  }
}

/** Every top-level option (docs/decisions/0016-options-grouped-by-concern.md). */
const TOP_LEVEL_KEYS: readonly string[] = [
  'name',
  'version',
  'instructions',
  'projection',
  'flattenUnionInput',
  'prepareProjections',
  'documents',
  'staleDocuments',
  'repair',
  'access',
  'observe',
  'limits',
  'protocol',
  'schemaValidation',
  'extend',
  'features',
];

/** The group object `name` (`{}` when not given). @throws TypeError for a non-object or a key it does not take. */
function group<G extends Group>(options: McpMountOptions<any>, name: G): NonNullable<McpMountOptions<any>[G]> {
  const value: unknown = options[name];
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`mcp-mount: ${name} must be an object of options (${GROUP_KEYS[name].join(', ')})`);
  }
  const known: readonly string[] = GROUP_KEYS[name];
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const moved = REPLACED_OPTIONS[key];
    const hint = moved ? `it is ${moved}` : `${name} takes ${known.join(', ')}`;
    throw new TypeError(`mcp-mount: ${name}.${key} is not an option; ${hint}`);
  }
  return value as NonNullable<McpMountOptions<any>[G]>;
}

function settleIdentity(options: McpMountOptions<any>): MountConfig['server'] {
  return Object.freeze({
    name: options.name ?? 'mcp-mount',
    version: options.version ?? '0.0.0',
    ...(options.instructions !== undefined && { instructions: options.instructions }),
  });
}

/** `schemaValidation`, with `policy` defaulted to `'throw'` and every list copied and frozen. */
function settleValidation(validation: SchemaValidationOptions = {}): MountConfig['validation'] {
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
  const list = (values: readonly string[]) => Object.freeze([...values]) as string[];
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

/** `features`: the hook that registers resources, prompts and the like. */
function settleFeatures(options: McpMountOptions<any>): Pick<MountConfig, 'features'> {
  hook('features', options.features);
  return options.features ? { features: options.features } : {};
}

/** `protocol`: `logging` off, `responseMode` `'auto'`, `requestState` as given (its `verify` only). */
function settleProtocol(protocol: ProtocolOptions): Pick<MountConfig, 'logging' | 'responseMode' | 'requestState'> {
  boolean('protocol.logging', protocol.logging);
  const responseMode = protocol.responseMode ?? 'auto';
  if (!RESPONSE_MODES.includes(responseMode)) {
    throw new TypeError(
      `mcp-mount: protocol.responseMode must be one of ${RESPONSE_MODES.join(', ')}, got ${String(responseMode)}`,
    );
  }
  const { requestState } = protocol;
  if (requestState !== undefined && typeof requestState?.verify !== 'function') {
    throw new TypeError(
      'mcp-mount: protocol.requestState must be { verify(state, ctx) }, e.g. createRequestStateCodec(...)',
    );
  }
  return {
    logging: protocol.logging === true,
    responseMode,
    ...(requestState && { requestState: Object.freeze({ verify: requestState.verify }) }),
  };
}

/** @throws TypeError when `value` is given and not a boolean. */
function boolean(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`mcp-mount: ${name} must be a boolean, got ${String(value)}`);
  }
}

/** @throws TypeError when `value` is given and not a function. */
function hook(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') throw new TypeError(`mcp-mount: ${name} must be a function`);
}

const PREPARE_PROJECTIONS = ['on-first-use', 'at-startup'] as const;
const STALE_DOCUMENTS = ['fail', 'prepare'] as const;

/** `documents` and `staleDocuments`. @throws TypeError for a `staleDocuments` that names nothing, or one without documents. */
function documentsOf(options: McpMountOptions<any>): Pick<MountConfig, 'documents'> {
  const stale = options.staleDocuments ?? 'fail';
  if (!STALE_DOCUMENTS.includes(stale)) {
    throw new TypeError(`mcp-mount: staleDocuments must be 'fail' or 'prepare', got ${String(stale)}`);
  }
  if (options.documents === undefined) {
    if (options.staleDocuments !== undefined)
      throw new TypeError('mcp-mount: staleDocuments is given without documents');
    return {};
  }
  return { documents: Object.freeze({ module: options.documents, stale }) };
}

/**
 * `projection` and its shorthand `flattenUnionInput`, and `prepareProjections`.
 * @throws TypeError for a value that names nothing.
 */
function settleProjection(options: McpMountOptions<any>): ProjectionPolicy {
  const prepare = options.prepareProjections ?? 'on-first-use';
  if (!PREPARE_PROJECTIONS.includes(prepare)) {
    throw new TypeError(
      `mcp-mount: prepareProjections must be ${PREPARE_PROJECTIONS.map((p) => `'${p}'`).join(' or ')}, got ${String(prepare)}`,
    );
  }
  return frozenPolicy({ ...projectionChoice(options), prepare });
}

/** `projection` and its shorthand `flattenUnionInput`, settled. */
function projectionChoice(options: McpMountOptions<any>): Omit<ProjectionPolicy, 'prepare'> {
  const { projection, flattenUnionInput } = options;
  boolean('flattenUnionInput', flattenUnionInput);
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

/** What the argument check reads (arguments/call.ts): `repair`, settled, and the argument caps of `limits`. */
export function callPolicy(config: MountConfig): CallPolicy {
  return Object.freeze({ ...config.arguments, argumentLimits: config.limits.argumentLimits });
}
