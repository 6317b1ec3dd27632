/**
 * Runs an action with some settings of the environment changed, as the service reads them (shared/config.ts), then
 * puts them back as they were: for the example captures and the tests that point the service elsewhere for one call
 * (no Paystack, no sender).
 */
import { resetConfig } from '../../shared/config.ts';

export async function withEnvironment<T>(values: Record<string, string>, action: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  resetConfig();
  try {
    return await action();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  }
}
