import { describe, expect, it } from 'vitest';
import { invalidApiKey } from '../../../shared/http/errors.ts';
import { authenticate, authenticatedAccount } from '../../../shared/http/middleware/authenticate.ts';
import type { Account } from '../../../shared/store/accounts.ts';
import { apiRequest } from './request.ts';

const account: Account = {
  companyId: 7,
  name: 'Acme',
  currency: 'NGN',
  timeZone: 'Africa/Lagos',
  tokenizationEnabled: false,
  cursorSecret: 'c2VjcmV0',
  createdAt: '2026-01-01 00:00:00',
  profile: {},
  reminderOffsets: [],
  vat: { mode: 'off', rateUnits: 75_000 },
  invoicePrefix: 'INV-',
};

describe('authenticate middleware', () => {
  it('puts the account the Authorization header resolves to on the context', async () => {
    // Prepare
    const seen: (string | undefined)[] = [];
    const middleware = authenticate({
      resolveAccount: async (header) => {
        seen.push(header);
        return account;
      },
    });
    const request = apiRequest({ headers: { authorization: 'Bearer sk_x' } });
    // Act
    await middleware.before!(request);
    // Assess
    expect(seen).toEqual(['Bearer sk_x']);
    expect(request.context.account).toBe(account);
  });

  it('lets the 401 through and sets no account', async () => {
    // Prepare
    const middleware = authenticate({ resolveAccount: async () => Promise.reject(invalidApiKey()) });
    const request = apiRequest();
    // Act, Assess
    await expect(middleware.before!(request)).rejects.toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(request.context.account).toBeUndefined();
  });

  it('by default refuses a missing or malformed key without reading the table', async () => {
    // Prepare
    const middleware = authenticate();
    // Act, Assess
    await expect(middleware.before!(apiRequest())).rejects.toMatchObject({ code: 'invalid_api_key' });
    await expect(middleware.before!(apiRequest({ headers: { authorization: 'Bearer nope' } }))).rejects.toMatchObject({
      code: 'invalid_api_key',
    });
  });
});

describe('authenticatedAccount', () => {
  it('returns the account authenticate set, and answers the same 401 when there is none', () => {
    // Prepare
    const request = apiRequest();
    // Act, Assess
    expect(() => authenticatedAccount(request.context)).toThrow(invalidApiKey().message);
    request.context.account = account;
    expect(authenticatedAccount(request.context)).toBe(account);
  });
});
