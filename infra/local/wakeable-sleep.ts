/** A pause that another part of the loop can cut short (new work arrived, or the loop is stopping). */
export interface WakeableSleep {
  sleep(ms: number): Promise<void>;
  /** Ends the current pause at once (nothing happens when none is running). */
  wake(): void;
}

export function wakeableSleep(): WakeableSleep {
  let wakeCurrent: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolveSleep) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeCurrent = undefined;
          resolveSleep();
        }
        wakeCurrent = done;
      }),
    wake: () => wakeCurrent?.(),
  };
}
