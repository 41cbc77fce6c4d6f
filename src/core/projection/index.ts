// Presentation projections of the served JSON Schema. The original Zod schema stays the only parser.
export { inlineRefs } from './inline-refs.js';
export { relaxIntersections } from './intersections.js';
export { collapseNullable } from './nullable.js';
export { dropSafeIntegerBounds } from './safe-integer.js';
