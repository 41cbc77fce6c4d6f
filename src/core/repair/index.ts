export { repairArgs } from './repair-args.js';
export type { Repair } from './types.js';
