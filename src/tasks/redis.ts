/**
 * @module
 * The Redis task store (`mcp-mount/tasks/redis`): every replica reads and writes the same tasks through the
 * user's own ioredis client. `tasks: { store: createRedisTaskStore({ client: new Redis(url) }) }`
 * (docs/guide/tasks.md).
 */
export { createRedisTaskStore, type RedisScriptClient, type RedisTaskStoreOptions } from '../core/tasks/redis.js';
export type { TaskStore } from '../core/tasks/store.js';
