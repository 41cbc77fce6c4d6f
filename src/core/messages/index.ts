export { formatIssues } from './format.js';
