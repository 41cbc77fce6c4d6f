/**
 * A latch a test opens, or waits on: tests wait on the event itself, never on a clock. `open` settles
 * `opened` with its value; opening again changes nothing.
 */
export function latch<T = void>(): { open: (value: T) => void; opened: Promise<T> } {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
