// The memory limiter alone: the package's root entry loads every store (and Node's `cluster`), which a
// Worker cannot bundle. Its types are the root's.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import { RateLimiterMemory } from 'rate-limiter-flexible';
  export default RateLimiterMemory;
}
