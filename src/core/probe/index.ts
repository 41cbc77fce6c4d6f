// Document checks shared by `validateMcpSchemas` and the mount's startup check.

export { checkAppViews } from './app-views.js';
export { checkDocument } from './check-document.js';
export { checkToolNames } from './names.js';
export { PROFILES } from './profiles.js';
export { rootProblem } from './root.js';
export { checkToolScopes, type SettledScopes } from './scopes.js';
export { checkToolFields } from './tool-fields.js';
