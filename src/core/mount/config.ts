/**
 * Options settled once per mount: every later step (preparation, the probe's checks, serving each request)
 * reads this frozen, fully defaulted configuration, never the options the caller passed.
 */
import type { PerRequestResponseMode, ServerOptions } from '@modelcontextprotocol/server';
import { isProjectionName, PROJECTION_NAMES, type ProjectionName } from '../projection/names.js';
import {
  type AuthPolicy,
  type CorsPolicy,
  type OriginPolicy,
  settleAuthPolicy,
  settleCorsPolicy,
  settleOriginPolicy,
} from './access.js';
import { AUTO_PROJECTIONS, autoProjection, type ClientIdentity } from './client-identity.js';
import type {
  CallEvent,
  ErrorInfo,
  ExtendOption,
  McpMountOptions,
  SchemaValidationOptions,
  VisibilityContext,
  VisibleTools,
} from './options.js';
import type { ServerHook } from './server-hook.js';

/** What `projection: 'auto'` can answer besides `flat`. */
const AUTO_TARGETS = AUTO_PROJECTIONS.map((rule) => rule.projection);

/** The SDK's own default body limit, 4 MiB. */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

/** What one call's arguments may hold (docs/design/repair.md, Limits). */
export interface ArgumentLimits {
  /** Nesting levels of arrays and objects, sent or parsed from text; the arguments object is level 1. */
  readonly maxDepth: number;
  /** Values sent; text that repair parses may hold as many again. */
  readonly maxValues: number;
}

/** 64 levels: far past real arguments, far from where Zod's recursive parse would exhaust the stack. */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;
/** 1,000,000 values: every walk over them is linear, so this bounds a call's work, not its validity. */
export const DEFAULT_MAX_ARGUMENT_VALUES = 1_000_000;

const POLICIES = ['throw', 'warn', 'skip'] as const;
const UNKNOWN_KEYS = ['notice', 'reject', 'strip'] as const;
const RESPONSE_MODES: readonly PerRequestResponseMode[] = ['auto', 'sse', 'json'];

/** Keys clients are known to add to every call's arguments on their own: n8n's `toolCallId`. */
export const DEFAULT_INJECTED_KEYS: readonly string[] = Object.freeze(['toolCallId']);

/** What a mount runs with. Deep-frozen; built only by `settleOptions`. */
export interface MountConfig {
  /** Server identity sent in `initialize` / `server/discover`. */
  readonly server: { readonly name: string; readonly version: string; readonly instructions?: string };
  /** `projection` (or `flattenUnionInput`), settled. */
  readonly projection: ProjectionPolicy;
  readonly extend?: ExtendOption;
  /** The probe's options, with `policy` defaulted to `'throw'` and every list copied and frozen. */
  readonly validation: Readonly<SchemaValidationOptions> & { readonly policy: (typeof POLICIES)[number] };
  /** Which argument repairs run (`coerceJsonArgs`, `coerceScalarArgs`, `nullAsAbsent`). */
  readonly repair: { readonly json: boolean; readonly scalars: boolean; readonly nullAsAbsent: boolean };
  /** `unknownKeys`, defaulted to `'notice'`. */
  readonly unknownKeys: (typeof UNKNOWN_KEYS)[number];
  /** `injectedKeys`, defaulted to `['toolCallId']`. */
  readonly injectedKeys: readonly string[];
  /** `argumentHygiene`, defaulted to true. */
  readonly hygiene: boolean;
  /** Bytes; a body over this gets 413. */
  readonly maxRequestBodyBytes: number;
  /** `maxArgumentDepth` and `maxArgumentValues`: what one call's arguments may hold. */
  readonly argumentLimits: ArgumentLimits;
  /** `originCheck`, `allowedOrigins`, `allowedHosts`. */
  readonly origin: OriginPolicy;
  /** `cors`, settled; undefined when off. */
  readonly cors?: CorsPolicy;
  /** `auth`, defaulted; undefined without it. */
  readonly auth?: AuthPolicy;
  /** `listUnauthorizedTools`. */
  readonly listUnauthorizedTools: boolean;
  readonly visibleTools?: (context: VisibilityContext) => VisibleTools | Promise<VisibleTools>;
  readonly logger: Pick<Console, 'warn' | 'error'>;
  readonly onCall?: (event: CallEvent) => void;
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
  readonly redact?: (args: Record<string, unknown>, tool: string) => unknown;
  /** `exposeErrors`: unexpected handler errors show their message to the client. */
  readonly exposeErrors: boolean;
  /** The `server` option: registers resources, prompts and the like on each per-request server. */
  readonly serverHook?: ServerHook;
  /** `logging`: declare the logging capability on every per-request server. */
  readonly logging: boolean;
  /** `responseMode`, default `'auto'`. */
  readonly responseMode: PerRequestResponseMode;
  /** `requestState`, handed to every per-request server. */
  readonly requestState?: ServerOptions['requestState'];
}

/** Which documents a mount serves, and how a `tools/list` picks one. */
export interface ProjectionPolicy {
  /** What `report.tools` shows and what a fixed choice serves: the option's name; `flat` for 'auto' or a function. */
  readonly default: ProjectionName;
  /** Every projection a request can be served, computed and probed at construction; `default` first. */
  readonly served: readonly ProjectionName[];
  /** Per `tools/list`, when the choice depends on the client. */
  readonly choose?: (client: ClientIdentity) => ProjectionName;
}

/**
 * Turns the caller's options into the mount's configuration: defaults filled in, lists copied (a caller
 * mutating its options object later changes nothing), the whole deep-frozen.
 *
 * @throws TypeError naming the option when a value cannot mean anything (`maxRequestBodyBytes`,
 *   `maxArgumentDepth` or `maxArgumentValues` not a positive integer, an unknown `schemaValidation.policy`, `unknownKeys` or `responseMode`, `injectedKeys`
 *   that are not names, an `argumentHygiene` or `logging` that is not a boolean, a hook that is not a
 *   function, an `allowedOrigins` or `allowedHosts` entry that is not an origin or a hostname, an `auth`
 *   field that cannot mean anything, a `requestState` without a `verify` function).
 */
export function settleOptions(options: McpMountOptions<any> = {}): MountConfig {
  const validation = options.schemaValidation ?? {};
  const policy = validation.policy ?? 'throw';
  if (!POLICIES.includes(policy)) {
    throw new TypeError(
      `mcp-mount: schemaValidation.policy must be one of ${POLICIES.join(', ')}, got ${String(policy)}`,
    );
  }
  const maxRequestBodyBytes = positiveInteger(
    'maxRequestBodyBytes',
    options.maxRequestBodyBytes,
    DEFAULT_MAX_REQUEST_BODY_BYTES,
  );
  const argumentLimits = Object.freeze({
    maxDepth: positiveInteger('maxArgumentDepth', options.maxArgumentDepth, DEFAULT_MAX_ARGUMENT_DEPTH),
    maxValues: positiveInteger('maxArgumentValues', options.maxArgumentValues, DEFAULT_MAX_ARGUMENT_VALUES),
  });
  const unknownKeys = options.unknownKeys ?? 'notice';
  if (!UNKNOWN_KEYS.includes(unknownKeys)) {
    throw new TypeError(`mcp-mount: unknownKeys must be one of ${UNKNOWN_KEYS.join(', ')}, got ${String(unknownKeys)}`);
  }
  const injected = options.injectedKeys ?? DEFAULT_INJECTED_KEYS;
  if (!Array.isArray(injected) || !injected.every((k) => typeof k === 'string')) {
    throw new TypeError('mcp-mount: injectedKeys must be an array of key names');
  }
  if (options.argumentHygiene !== undefined && typeof options.argumentHygiene !== 'boolean') {
    throw new TypeError(`mcp-mount: argumentHygiene must be a boolean, got ${String(options.argumentHygiene)}`);
  }
  for (const hook of ['onCall', 'onError', 'visibleTools', 'redact', 'server'] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') {
      throw new TypeError(`mcp-mount: ${hook} must be a function`);
    }
  }
  if (options.logging !== undefined && typeof options.logging !== 'boolean') {
    throw new TypeError(`mcp-mount: logging must be a boolean, got ${String(options.logging)}`);
  }
  const responseMode = options.responseMode ?? 'auto';
  if (!RESPONSE_MODES.includes(responseMode)) {
    throw new TypeError(
      `mcp-mount: responseMode must be one of ${RESPONSE_MODES.join(', ')}, got ${String(options.responseMode)}`,
    );
  }
  const { requestState } = options;
  if (requestState !== undefined && typeof requestState?.verify !== 'function') {
    throw new TypeError('mcp-mount: requestState must be { verify(state, ctx) }, e.g. createRequestStateCodec(...)');
  }
  const list = (values: readonly string[] | undefined) => (values ? Object.freeze([...values]) : undefined);
  const config: MountConfig = {
    server: {
      name: options.name ?? 'mcp-mount',
      version: options.version ?? '0.0.0',
      ...(options.instructions !== undefined && { instructions: options.instructions }),
    },
    projection: settleProjection(options),
    ...(options.extend && { extend: Object.freeze({ ...options.extend }) }),
    validation: {
      policy,
      ...(validation.profiles && { profiles: list(validation.profiles) as string[] }),
      ...(validation.requireTypedProperties !== undefined && {
        requireTypedProperties: validation.requireTypedProperties,
      }),
      ...(validation.allowUntyped && { allowUntyped: list(validation.allowUntyped) as string[] }),
      ...(validation.requirePortableFormats !== undefined && {
        requirePortableFormats: validation.requirePortableFormats,
      }),
      ...(validation.allowFormats && { allowFormats: list(validation.allowFormats) as string[] }),
    },
    repair: {
      json: options.coerceJsonArgs !== false,
      scalars: options.coerceScalarArgs !== false,
      nullAsAbsent: options.nullAsAbsent !== false,
    },
    unknownKeys,
    injectedKeys: Object.freeze([...injected]),
    hygiene: options.argumentHygiene !== false,
    maxRequestBodyBytes,
    argumentLimits,
    origin: settleOriginPolicy(options),
    ...(options.cors !== undefined && options.cors !== false && { cors: settleCorsPolicy(options) }),
    ...(options.auth !== undefined && { auth: settleAuthPolicy(options) }),
    listUnauthorizedTools: options.listUnauthorizedTools === true,
    ...(options.visibleTools && { visibleTools: options.visibleTools }),
    exposeErrors: options.exposeErrors === true,
    logger: options.logger ?? console,
    ...(options.onCall && { onCall: options.onCall }),
    ...(options.onError && { onError: options.onError }),
    ...(options.redact && { redact: options.redact }),
    ...(options.server && { serverHook: options.server }),
    logging: options.logging === true,
    responseMode,
    ...(requestState && { requestState: Object.freeze({ verify: requestState.verify }) }),
  };
  Object.freeze(config.server);
  Object.freeze(config.projection.served);
  Object.freeze(config.projection);
  Object.freeze(config.validation);
  Object.freeze(config.repair);
  return Object.freeze(config);
}

/** A limit given as a positive safe integer, else `fallback` when not given. @throws TypeError otherwise. */
function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`mcp-mount: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** `projection`, its shorthand `flattenUnionInput`, and `projections`. @throws TypeError for a value that names nothing. */
function settleProjection(options: McpMountOptions<any>): ProjectionPolicy {
  const { projection, flattenUnionInput } = options;
  if (flattenUnionInput !== undefined && typeof flattenUnionInput !== 'boolean') {
    throw new TypeError(`mcp-mount: flattenUnionInput must be a boolean, got ${String(flattenUnionInput)}`);
  }
  const listed = listedProjections(options.projections);
  const chooses = projection === 'auto' || typeof projection === 'function';
  if (listed && !chooses) {
    throw new TypeError("mcp-mount: projections goes with projection: 'auto' or a function, which choose among them");
  }
  if (projection === undefined) {
    const only: ProjectionName = flattenUnionInput ? 'flat' : 'faithful';
    return { default: only, served: [only] };
  }
  if (flattenUnionInput === true && projection !== 'flat') {
    throw new TypeError(
      "mcp-mount: flattenUnionInput: true is shorthand for projection: 'flat'; give projection alone",
    );
  }
  if (typeof projection === 'function') {
    const served = listed ?? ['flat', ...PROJECTION_NAMES.filter((n) => n !== 'flat')];
    return { default: served.includes('flat') ? 'flat' : served[0]!, served, choose: projection };
  }
  if (projection === 'auto') {
    const served = [...new Set<ProjectionName>(['flat', ...(listed ?? AUTO_TARGETS)])];
    // A row naming a projection left out falls back to flat, the superset every client takes.
    const choose = (client: ClientIdentity): ProjectionName => {
      const chosen = autoProjection(client);
      return served.includes(chosen) ? chosen : 'flat';
    };
    return { default: 'flat', served, choose };
  }
  if (!isProjectionName(projection)) {
    throw new TypeError(
      `mcp-mount: projection must be 'auto', a function, or one of ${PROJECTION_NAMES.join(', ')}; got ${String(projection)}`,
    );
  }
  return { default: projection, served: [projection] };
}

/** `projections`, checked and without repeats; undefined when not given. */
function listedProjections(value: unknown): ProjectionName[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every(isProjectionName)) {
    throw new TypeError(
      `mcp-mount: projections must be a non-empty array of ${PROJECTION_NAMES.join(', ')}; got ${JSON.stringify(value)}`,
    );
  }
  return [...new Set(value)];
}
