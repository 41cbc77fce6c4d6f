/**
 * This package's version, as package.json gives it: build-time documents record it, because another release
 * may convert, project or probe the same tools differently (docs/decisions/0024-build-time-documents.md).
 * A constant rather than a JSON import, so that a Worker's bundle does not carry package.json; a unit test
 * keeps the two in step.
 */
export const MCP_MOUNT_VERSION = '0.1.0';
