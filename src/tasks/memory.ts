/**
 * @module
 * The in-memory task store (`mcp-mount/tasks/memory`): one process's tasks, for a single instance and for
 * tests. Give it to the mount as `tasks: { store: createMemoryTaskStore() }` (docs/guide/tasks.md).
 */
export {
  createMemoryTaskStore,
  type MemoryTaskStore,
  type MemoryTaskStoreOptions,
} from '../core/tasks/memory.js';
export type { TaskStore } from '../core/tasks/store.js';
