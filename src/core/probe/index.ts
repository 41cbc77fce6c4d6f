// Document checks shared by `validateMcpSchemas` and the mount's startup check.

export {
  GEMINI_FORMATS,
  LOCAL_GRAMMAR_LIMITS,
  OPENAI_STRICT_FORMATS,
  PORTABLE_FORMATS,
} from '../json-schema/client-limits.js';
export { APP_VIEW_MIME_TYPE, checkAppViews } from './app-views.js';
export { checkDocument } from './check-document.js';
export { checkToolNames, TOOL_NAME_PATTERN } from './names.js';
export { PROFILES, resolveProfiles } from './profiles.js';
export { rootProblem } from './root.js';
export { checkToolScopes, type SettledScopes } from './scopes.js';
export { checkToolFields } from './tool-fields.js';
export type { CheckContext, CheckOptions, Finding, Profile, Rule, RuleContext, SchemaVisit } from './types.js';
