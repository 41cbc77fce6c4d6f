/**
 * Options settled once per mount: every later step (preparation, the probe's checks, serving each request)
 * reads this frozen, fully defaulted configuration, never the options the caller passed.
 */

import type { PerRequestResponseMode, ServerOptions } from '@modelcontextprotocol/server';
import { type AccessPolicy, settleAccess } from '../access/settle.js';
import type { CallPolicy } from '../arguments/call.js';
import { type ArgumentsPolicy, settleArguments } from '../arguments/settle.js';
import type { DocumentsSetup } from '../documents/preparation.js';
import { type DocumentsPolicy, settleDocuments } from '../documents/settle.js';
import { type LimitsPolicy, settleLimits } from '../limits/settle.js';
import { closestKey } from '../messages/closest-key.js';
import type { ServerHook } from '../model/features.js';
import { type Observer, settleObserve } from '../observe/settle.js';
import type { PrepareSetup } from '../prepare/prepare.js';
import { type PreparePolicy, settlePrepare } from '../prepare/settle.js';
import type { ExtendOption, McpMountOptions, ProtocolOptions } from './options.js';

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
  /** `projection` (or `flattenUnionInput`), `prepareProjections` and `schemaValidation`, settled. */
  readonly prepare: PreparePolicy;
  /** `documents`, settled; undefined without documents. */
  readonly documents?: DocumentsPolicy;
  readonly extend?: ExtendOption;
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
  const documents = settleDocuments(options.documents);
  const config: MountConfig = {
    server: settleIdentity(options),
    prepare: settlePrepare(options),
    ...(documents && { documents }),
    ...(options.extend && { extend: Object.freeze({ ...options.extend }) }),
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

/** What the argument check reads (arguments/call.ts): `repair`, settled, and the argument caps of `limits`. */
export function callPolicy(config: MountConfig): CallPolicy {
  return Object.freeze({ ...config.arguments, argumentLimits: config.limits.argumentLimits });
}

/** What the preparation runs with (prepare/prepare.ts): the documents' policy and what else of the mount shapes a tool. */
export function prepareSetup(config: MountConfig): PrepareSetup {
  return Object.freeze({
    policy: config.prepare,
    ...(config.extend && { extend: config.extend }),
    ...(config.features && { features: config.features }),
    server: config.server,
    authenticates: config.access.auth !== undefined,
  });
}

/** What build-time documents are matched and served with (documents/preparation.ts). */
export function documentsSetup(config: MountConfig): DocumentsSetup {
  return Object.freeze({
    projections: config.prepare.projection,
    validation: config.prepare.validation,
    ...(config.extend && { extend: config.extend }),
    ...(config.features && { features: config.features }),
    server: config.server,
  });
}
