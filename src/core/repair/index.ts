export { CANONICAL_DECIMAL } from '../json-schema/canonical-number.js';
export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, DEFAULT_MAX_STRING_BYTES, DEFAULT_REPAIR_LIMITS } from './limits.js';
export { repairArgs } from './repair-args.js';
export type { Repair, RepairFrom, RepairIssue, RepairOptions, RepairResult, RepairSwitches } from './types.js';
