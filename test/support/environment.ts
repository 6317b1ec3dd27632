/**
 * Environment variables a test file needs (the send routes' MAIL_FROM: a stage without a sender answers 501 before any
 * write), set before its tests and restored after them; the configuration, read once per process, is read again each
 * time.
 */
import { afterAll, beforeAll } from 'vitest';
import { resetConfig } from '../../shared/config.ts';

export function useEnvironment(values: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  beforeAll(() => {
    Object.assign(process.env, values);
    resetConfig();
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  });
}

/** The sender of a stage that sends e-mail. */
export const WITH_MAIL_SENDER = { MAIL_FROM: 'invoices@example.com' };
