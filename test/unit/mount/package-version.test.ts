import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_MOUNT_VERSION } from '../../../src/core/documents/package-version.js';

describe('the version build-time documents record', () => {
  it("is package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(MCP_MOUNT_VERSION).toBe(pkg.version);
  });
});
