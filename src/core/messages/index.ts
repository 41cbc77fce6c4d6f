export { type FormattableIssue, formatIssues, type PlainIssue } from './format.js';
export { formatPath } from './path.js';
