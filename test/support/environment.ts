/**
 * Environment variables a test file needs (the send routes' MAIL_FROM: a stage without a sender answers 501 before any
 * write), set before its tests and restored after them; the configuration, read once per process, is read again each
 * time.
 */
import { afterAll, beforeAll } from 'vitest';
import { environmentRestorer } from '../../infra/tools/environment.ts';
import { resetConfig } from '../../shared/config.ts';

export function useEnvironment(values: Record<string, string>): void {
  const restore = environmentRestorer(Object.keys(values));
  beforeAll(() => {
    Object.assign(process.env, values);
    resetConfig();
  });
  afterAll(restore);
}

/** The sender of a stage that sends e-mail. */
export const WITH_MAIL_SENDER = { MAIL_FROM: 'invoices@example.com' };
