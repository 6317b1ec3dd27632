/**
 * Runs an action with some settings of the environment changed, as the service reads them (shared/config.ts), then
 * puts them back as they were: for the example captures and the tests that point the service elsewhere for one call
 * (no Paystack, no sender).
 */
import { resetConfig } from '../../shared/config.ts';

export async function withEnvironment<T>(values: Record<string, string>, action: () => Promise<T>): Promise<T> {
  const restore = environmentRestorer(Object.keys(values));
  Object.assign(process.env, values);
  resetConfig();
  try {
    return await action();
  } finally {
    restore();
  }
}

/**
 * Notes the values `names` have now; the function it returns puts them back (one unset now is unset again, not the
 * string "undefined") and has the configuration read again.
 */
export function environmentRestorer(names: readonly string[]): () => void {
  const before = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  };
}
