/** Answers the soak test's `'heap'` IPC message with `{ heapUsed }` after full collections. */
export function reportHeapOnRequest(): void;
