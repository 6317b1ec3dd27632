/** `account:update`'s options (docs/accounts.md "The merchant's profile"): parsed and validated without a database. */
import { describe, expect, it } from 'vitest';
import { type ParsedCommandLine, parseCommandLine, UsageError } from '../../infra/cli/command.ts';
import { COMMANDS } from '../../infra/cli/commands.ts';

const inputOf = (parsed: ParsedCommandLine) => {
  if (parsed.kind !== 'run') throw new Error('expected a command, got help');
  return parsed.input as { companyId: number; changes: Record<string, unknown> };
};
const update = (...args: string[]) =>
  inputOf(parseCommandLine(COMMANDS, ['account:update', '--company-id', '7', ...args]));
const refusal = (...args: string[]) => {
  try {
    update(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`account:update ${args.join(' ')} was accepted`);
};

describe('account:update options', () => {
  it('takes every profile field, trimmed, and the name', () => {
    const input = update(
      '--name',
      ' Acme  Trading ',
      '--email',
      'billing@acme.ng',
      '--phone',
      '+234 801 234 5678',
      '--address',
      '12 Marina Road\\nLagos',
      '--tax-id',
      ' 12345678-0001 ',
      '--bank-name',
      'Zenith Bank',
      '--account-name',
      'Acme Trading Ltd',
      '--account-number',
      '1012345678',
    );
    expect(input).toEqual({
      companyId: 7,
      changes: {
        name: 'Acme Trading',
        profile: {
          email: 'billing@acme.ng',
          phone: '+234 801 234 5678',
          address: '12 Marina Road\nLagos',
          taxId: '12345678-0001',
          bankName: 'Zenith Bank',
          accountName: 'Acme Trading Ltd',
          accountNumber: '1012345678',
        },
      },
    });
  });

  it('an empty value clears a profile field (undefined), and --reminders= clears the schedule', () => {
    expect(update('--email=', '--reminders=').changes).toEqual({ profile: { email: undefined }, reminderOffsets: [] });
    expect(update('--tax-id', '').changes).toEqual({ profile: { taxId: undefined } });
  });

  it('reads --reminders=-3,0,7,14 and --reminders "-3,0,7,14" alike, sorted', () => {
    expect(update('--reminders=-3,0,7,14').changes.reminderOffsets).toEqual([-3, 0, 7, 14]);
    expect(update('--reminders', '-3,0,7,14').changes.reminderOffsets).toEqual([-3, 0, 7, 14]);
    expect(update('--reminders', '14, 7 ,-3').changes.reminderOffsets).toEqual([-3, 7, 14]);
  });

  it('refuses what a profile or a schedule cannot hold, naming the option', () => {
    expect(refusal('--email', 'not-an-address')).toMatch(/^--email must be an e-mail address/);
    expect(refusal('--phone', 'call me')).toMatch(/^--phone must be a telephone number/);
    expect(refusal('--tax-id', 'x'.repeat(51))).toMatch(/^--tax-id must be at most 50 characters/);
    expect(refusal('--account-number', '12/34')).toMatch(/^--account-number must be letters, digits/);
    expect(refusal('--bank-name', 'Zenith\u0007Bank')).toMatch(/control characters/);
    expect(refusal('--name', '  ')).toMatch(/^--name must not be empty/);
    expect(refusal('--reminders=1.5')).toMatch(/^--reminders must be a comma-separated list of whole days/);
    expect(refusal('--reminders=-400')).toMatch(/-400 is outside/);
    expect(refusal('--reminders=7,7')).toMatch(/7 appears twice/);
    expect(refusal('--reminders=1,2,3,4,5,6,7,8,9,10,11')).toMatch(/at most 10 days/);
    expect(refusal('--reminders=1,,2')).toMatch(/"" is not/);
    expect(refusal()).toMatch(/^Nothing to change/);
  });

  it('still needs a valid --company-id', () => {
    expect(() => parseCommandLine(COMMANDS, ['account:update', '--name', 'X'])).toThrow(/--company-id is required/);
  });

  it('takes a Paystack secret key (test or live), an empty one to disconnect, and the four fee settings', () => {
    const key = `sk_test_${'a1'.repeat(20)}`;
    expect(update('--paystack-secret-key', ` ${key} `)).toMatchObject({ paystack: { secretKey: key } });
    expect(update('--paystack-secret-key=')).toMatchObject({ paystack: { secretKey: '' } });
    expect(
      update(
        '--paystack-fee-percent',
        '1.4',
        '--paystack-fee-flat',
        '50',
        '--paystack-fee-flat-from',
        '2,000',
        '--paystack-fee-cap',
        '1500.50',
      ),
    ).toMatchObject({ paystack: { fees: { percent: '1.4', flat: '50', flatFrom: '2,000', cap: '1500.50' } } });
  });

  it('refuses a key that is not a secret key and a fee setting out of range, naming the option', () => {
    expect(refusal('--paystack-secret-key', 'pk_test_abcdefgh12')).toMatch(
      /^--paystack-secret-key must be a Paystack secret key/,
    );
    expect(refusal('--paystack-fee-percent', '101')).toMatch(/^--paystack-fee-percent must be a percentage/);
    expect(refusal('--paystack-fee-percent', '1.555')).toMatch(/^--paystack-fee-percent/);
    expect(refusal('--paystack-fee-cap', '-5')).toMatch(/^--paystack-fee-cap must not be negative/);
  });

  it('takes the VAT mode, its rate in ten-thousandths of a percent and the invoice prefix (empty allowed)', () => {
    expect(update('--vat', 'Exclusive', '--vat-rate', '7.5', '--invoice-prefix', 'ACME/').changes).toEqual({
      profile: {},
      vatMode: 'exclusive',
      vatRateUnits: 75_000,
      invoicePrefix: 'ACME/',
    });
    expect(update('--vat', 'off').changes).toEqual({ profile: {}, vatMode: 'off' });
    expect(update('--invoice-prefix=').changes).toEqual({ profile: {}, invoicePrefix: '' });
  });

  it('takes the e-invoicing service id (8 letters or digits), and an empty one removes it', () => {
    expect(update('--einvoice-service-id', '94ND90NR').changes).toEqual({ profile: {}, einvoiceServiceId: '94ND90NR' });
    expect(update('--einvoice-service-id=').changes).toEqual({ profile: {}, einvoiceServiceId: null });
    expect(refusal('--einvoice-service-id', '94ND90N')).toMatch(/^--einvoice-service-id must be 8 letters or digits/);
    expect(refusal('--einvoice-service-id', '94ND-90NR')).toMatch(/^--einvoice-service-id must be 8 letters or digits/);
  });

  it('refuses an unknown VAT mode, a rate out of range and a prefix with spaces, naming the option', () => {
    expect(refusal('--vat', 'sometimes')).toMatch(/^--vat must be one of off, exclusive, inclusive/);
    expect(refusal('--vat-rate', '101')).toMatch(/^--vat-rate must be a percentage/);
    expect(refusal('--vat-rate', '7.55555')).toMatch(/^--vat-rate must be a percentage/);
    expect(refusal('--invoice-prefix', 'MY INV')).toMatch(/^--invoice-prefix must be at most 20/);
  });
});
