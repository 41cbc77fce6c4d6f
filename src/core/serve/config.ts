/**
 * The mount's configuration: the caller's options settled once, each by its own concern, into a record of
 * small frozen policies. Every later step reads the one policy it needs (a concern's per-request functions
 * take theirs, never this record); only serve/ composes them.
 */
import { ACCESS_KEYS, type AccessPolicy, settleAccess } from '../access/settle.js';
import type { CallPolicy } from '../arguments/call.js';
import { ARGUMENTS_KEYS, type ArgumentsPolicy, settleArguments } from '../arguments/settle.js';
import type { DocumentsSetup } from '../documents/preparation.js';
import { type DocumentsPolicy, settleDocuments } from '../documents/settle.js';
import { LIMITS_KEYS, type LimitsPolicy, settleLimits } from '../limits/settle.js';
import { closestKey, OPTION_FLOOR } from '../messages/closest-key.js';
import type { FeatureProbe } from '../model/features.js';
import { OBSERVE_KEYS, type Observer, settleObserve } from '../observe/settle.js';
import type { PrepareSetup } from '../prepare/prepare.js';
import { type PreparePolicy, settlePrepare } from '../prepare/settle.js';
import { optionGroup, optionKeys } from '../settle/checks.js';
import type { TasksOptions } from '../tasks/options.js';
import { settleTasks, TASKS_KEYS, type TasksPolicy } from '../tasks/settle.js';
import { SERVER_KEYS, type ServerPolicy, settleServer } from './identity.js';
import type { McpMountOptions } from './options.js';
import { PROTOCOL_KEYS, type ProtocolPolicy, settleProtocol } from './protocol.js';
import { probeServerHook } from './sdk/features-probe.js';

/**
 * Every top-level option: one list, tied to `McpMountOptions` by the compiler (docs/decisions/0031).
 * @internal exported for its tests alone
 */
export const TOP_LEVEL_KEYS = optionKeys<McpMountOptions>()([
  'server',
  'flattenUnionInput',
  'projection',
  'schemaValidation',
  'documents',
  'arguments',
  'access',
  'limits',
  'observe',
  'protocol',
  'tasks',
]);

/** What a mount runs with: each concern's policy. Deep-frozen; built only by `settleOptions`. */
export interface MountConfig {
  /** `server`: identity and the `features` hook. */
  readonly server: ServerPolicy;
  /** `projection` (or `flattenUnionInput`) and `schemaValidation`: what decides the served documents. */
  readonly prepare: PreparePolicy;
  /** `documents`; undefined without build-time documents. */
  readonly documents?: DocumentsPolicy;
  /** `arguments`: which repairs run, the unknown-key policy, markup hygiene, `extend`. */
  readonly arguments: ArgumentsPolicy;
  /** `access`: the Origin and Host checks, CORS, auth, visibility. */
  readonly access: AccessPolicy;
  /** `limits`: the body and argument caps, timeouts, rate windows, the concurrency cap. */
  readonly limits: LimitsPolicy;
  /** `observe`: what every concern reports through. */
  readonly observe: Observer;
  /** `protocol`: logging, the response mode, the `requestState` check. */
  readonly protocol: ProtocolPolicy;
  /** `tasks`: the store and the lease; undefined when the mount runs no tasks. */
  readonly tasks?: TasksPolicy;
}

/**
 * Turns the caller's options into the mount's configuration: each group settled by its concern, defaults
 * filled in, lists copied (a caller mutating its options object later changes nothing), the whole frozen.
 *
 * @throws TypeError naming the option when a value cannot mean anything: a key the options or a group do not
 *   take (with the closest one that exists), a group that is not an object, and whatever each concern's
 *   settle refuses (see `settleServer`, `settlePrepare`, `settleDocuments`, `settleArguments`, `settleAccess`,
 *   `settleLimits`, `settleObserve`, `settleProtocol`, `settleTasks`).
 * @example `settleOptions({ flattenUnionInput: true, limits: { timeoutMs: 30_000 } }).limits.timeoutMs // 30000`
 */
export function settleOptions(options: McpMountOptions<any> = {}): MountConfig {
  refuseUnknown(options);
  const server = settleServer(group('server', options.server, SERVER_KEYS));
  const documents = settleDocuments(options.documents);
  const tasks =
    options.tasks === undefined ? undefined : settleTasks(group<TasksOptions>('tasks', options.tasks, TASKS_KEYS));
  return Object.freeze({
    server,
    prepare: settlePrepare(options),
    ...(documents && { documents }),
    arguments: settleArguments(group('arguments', options.arguments, ARGUMENTS_KEYS)),
    access: settleAccess(group('access', options.access, ACCESS_KEYS)),
    limits: settleLimits(group('limits', options.limits, LIMITS_KEYS), server.name),
    observe: settleObserve(group('observe', options.observe, OBSERVE_KEYS)),
    protocol: settleProtocol(group('protocol', options.protocol, PROTOCOL_KEYS)),
    ...(tasks && { tasks }),
  });
}

/**
 * Refuses a key the options do not take: a misspelt group (`acess: { auth }`) would otherwise start a mount
 * without what it holds. A key that belongs to a group (`name`, `auth`, `timeoutMs`) is pointed there.
 */
function refuseUnknown(options: object): void {
  for (const key of Object.keys(options)) {
    if ((TOP_LEVEL_KEYS as readonly string[]).includes(key)) continue;
    const group = GROUP_OF.find(([, keys]) => keys.includes(key))?.[0];
    const near = closestKey(key, TOP_LEVEL_KEYS, undefined, OPTION_FLOOR);
    const hint = group ? ` (it is ${group}.${key})` : near ? ` (did you mean ${near}?)` : '';
    throw new TypeError(`mcp-mount: ${key} is not an option${hint}; the options are ${TOP_LEVEL_KEYS.join(', ')}`);
  }
}

/**
 * The group object `name`, checked by its concern's key list; a key that belongs to another group is pointed
 * there (`arguments.onCall` is observe.onCall).
 */
function group<T extends object>(name: string, value: unknown, keys: readonly (keyof T & string)[]): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      if ((keys as readonly string[]).includes(key)) continue;
      const home = GROUP_OF.find(([, other]) => other.includes(key))?.[0];
      if (home) throw new TypeError(`mcp-mount: ${name}.${key} is not an option; it is ${home}.${key}`);
    }
  }
  return optionGroup<T>(name, value, keys);
}

/** Each group and the keys it takes, to point a key given in the wrong place to its group. */
const GROUP_OF: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['server', SERVER_KEYS],
  ['arguments', ARGUMENTS_KEYS],
  ['access', ACCESS_KEYS],
  ['limits', LIMITS_KEYS],
  ['observe', OBSERVE_KEYS],
  ['protocol', PROTOCOL_KEYS],
  ['tasks', TASKS_KEYS],
];

/** What the argument check reads (arguments/call.ts): `arguments`, settled, and the argument caps of `limits`. */
export function callPolicy(config: MountConfig): CallPolicy {
  return Object.freeze({ ...config.arguments, argumentLimits: config.limits.argumentLimits });
}

/** What the preparation runs with (prepare/prepare.ts): the documents' policy and what else of the mount shapes a tool. */
export function prepareSetup(config: MountConfig): PrepareSetup {
  return Object.freeze({
    policy: config.prepare,
    ...(config.arguments.extend && { extend: config.arguments.extend }),
    features: featureProbe(config),
    authenticates: config.access.auth !== undefined,
  });
}

/** What build-time documents are matched and served with (documents/preparation.ts). */
export function documentsSetup(config: MountConfig): DocumentsSetup {
  return Object.freeze({
    projections: config.prepare.projection,
    validation: config.prepare.validation,
    ...(config.arguments.extend && { extend: config.arguments.extend }),
    features: featureProbe(config),
  });
}

const probes = new WeakMap<MountConfig, FeatureProbe>();

/** The `features` hook's one run at construction, shared by every setup of one mount: the hook runs once. */
function featureProbe(config: MountConfig): FeatureProbe {
  let probe = probes.get(config);
  if (probe === undefined) {
    probe = probeServerHook(config.server.features, config.server.implementation);
    probes.set(config, probe);
  }
  return probe;
}
