#!/usr/bin/env node
// `mcp-mount check <module>`: the startup probe and the schema lockfile from the command line (issue 5, items 6 and 7).
import { runCli } from './main.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
