#!/usr/bin/env node
// `mcp-mount check <module>`: the startup probe and the schema lockfile from the command line.
// See docs/decisions/0006-cli-and-schema-lockfile.md.
import { runCli } from './main.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
