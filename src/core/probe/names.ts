import type { SchemaIssue, SchemaIssueCode } from './issue.js';

/** MCP tool names (SEP-986): 1 to 64 characters from A-Z, a-z, 0-9, `_` and `-`. */
const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/**
 * Checks tool names as given (they are never rewritten): one `invalid-tool-name` issue per bad name and one
 * `duplicate-tool-name` issue per name used more than once, all at once so an author fixes them in one pass.
 */
export function checkToolNames(names: readonly string[]): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const issue = (tool: string, code: SchemaIssueCode, message: string): SchemaIssue => ({
    tool,
    path: '',
    code,
    message,
    severity: 'error',
    side: 'name',
  });
  // One issue per distinct name: a bad name used twice is one invalid-name issue plus one duplicate issue.
  for (const name of new Set(names)) {
    const why = invalidNameReason(name);
    if (why) issues.push(issue(name, 'invalid-tool-name', `tool name ${JSON.stringify(name)} is invalid: ${why}`));
  }
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const [name, count] of counts) {
    if (count > 1)
      issues.push(
        issue(
          name,
          'duplicate-tool-name',
          `tool name ${JSON.stringify(name)} is used by ${count} tools; names must be unique`,
        ),
      );
  }
  return issues;
}

function invalidNameReason(name: string): string | undefined {
  if (TOOL_NAME_PATTERN.test(name)) {
    // Valid by SEP-986, but the SDK keys registered tools by name in a plain object, where these names
    // collide with Object.prototype: registration throws on every request and the whole server fails.
    if (name in Object.prototype) {
      return `it is a built-in property name of JavaScript objects, which the MCP SDK cannot register as a tool; choose another name`;
    }
    return undefined;
  }
  if (name.length === 0) return 'it is empty; use 1 to 64 characters from A-Z, a-z, 0-9, _ and -';
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_-]/.test(c)))];
  const parts: string[] = [];
  if (bad.length > 0) parts.push(`it contains ${bad.map((c) => JSON.stringify(c)).join(', ')}`);
  if (name.length > MAX_LENGTH) parts.push(`it is ${name.length} characters long (at most ${MAX_LENGTH})`);
  return `${parts.join(' and ')}; use 1 to 64 characters from A-Z, a-z, 0-9, _ and -`;
}
