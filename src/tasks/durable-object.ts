/**
 * @module
 * The Cloudflare Durable Object task store (`mcp-mount/tasks/durable-object`): the Worker exports
 * `TaskStoreObject` and mounts `tasks: { store: createDurableObjectTaskStore({ namespace: env.TASKS }) }`
 * (docs/guide/tasks.md).
 */
export {
  createDurableObjectTaskStore,
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
  type DurableObjectStorageLike,
  type DurableObjectTaskStoreOptions,
  TaskStoreObject,
} from '../core/tasks/durable-object.js';
export type { TaskStore } from '../core/tasks/store.js';
