// Document checks shared by `validateMcpSchemas` and the mount's startup check.
export { checkDocument } from './check-document.js';
export { GEMINI_FORMATS, OPENAI_STRICT_FORMATS, PORTABLE_FORMATS } from './formats.js';
export { checkToolNames, TOOL_NAME_PATTERN } from './names.js';
export { LOCAL_GRAMMAR_LIMITS, PROFILES, resolveProfiles } from './profiles.js';
export { rootProblem } from './root.js';
export type { CheckContext, CheckOptions, Finding, Profile, Rule, RuleContext, SchemaVisit } from './types.js';
