/**
 * Answers the soak test's `'heap'` message with the heap after full collections, and exits when the parent
 * goes away. Shared by the soak servers (plain JavaScript, so that the Next.js server needs no loader).
 */
export function reportHeapOnRequest() {
  process.on('message', async (message) => {
    if (message !== 'heap') return;
    const gc = globalThis.gc;
    if (!gc) throw new Error('run with --expose-gc');
    // FinalizationRegistry callbacks (undici's signal followers) run as tasks after a collection: let them.
    for (let i = 0; i < 4; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    process.send?.({ heapUsed: process.memoryUsage().heapUsed });
  });
  process.on('disconnect', () => process.exit(0));
}
