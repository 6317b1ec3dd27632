/**
 * Runs the tasks of one key one after another within this process (docs/data-design.md "Document numbers"). An
 * account's invoices take consecutive numbers from one counter item, so concurrent creations conflict on it and all
 * but one retry; where one process serves many requests at once (`npm start`, the tests, a script) they wait their
 * turn here instead. A Lambda invocation serves one request at a time, so deployed this never waits: across processes
 * the counter's condition alone keeps the numbers distinct and gapless.
 */
const tails = new Map<string, Promise<unknown>>();

export function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
