/** Authentication first (docs/api.md "Authentication"): resolves the bearer key to its account, or 401. */

import type { Account } from '../../store/accounts.ts';
import { resolveAccount } from '../auth.ts';
import { invalidApiKey } from '../errors.ts';
import type { ApiContext, ApiMiddleware } from './types.ts';

export interface AuthenticateOptions {
  /** Resolves an Authorization header to its account; throws the 401 otherwise. */
  resolveAccount: typeof resolveAccount;
}

const defaults: AuthenticateOptions = { resolveAccount };

export function authenticate(opts: Partial<AuthenticateOptions> = {}): ApiMiddleware {
  const options = { ...defaults, ...opts };
  return {
    name: 'authenticate',
    before: async (request) => {
      request.context.account = await options.resolveAccount(request.event.headers?.authorization);
    },
  };
}

/**
 * The account `authenticate` set. Handlers run only after it did (it answers 401 otherwise); the types
 * cannot know that, so a missing account is the same 401.
 */
export function authenticatedAccount(context: ApiContext): Account {
  if (!context.account) throw invalidApiKey();
  return context.account;
}
