/**
 * @module
 * The schema lockfile (`mcp-mount/lockfile`): the exact `tools/list` documents a mount serves, written
 * once and compared on every check, for a deploy script or a test that does what `mcp-mount check --check-lock`
 * does. See docs/decisions/0006-cli-and-schema-lockfile.md.
 */
export {
  diffSchemaLock,
  type SchemaLockChange,
  type SchemaLockDiff,
  type SchemaLockOptions,
  writeSchemaLock,
} from './lockfile.js';
