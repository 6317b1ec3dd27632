/**
 * `account:update` and `account:list` as a user runs them (`npm run --silent …`: the script's command, test/support/cli.ts), against the test run's DynamoDB
 * Local: the profile and the reminder schedule are stored, shown, and cleared (docs/accounts.md "The merchant's profile").
 */
import { describe, expect, it } from 'vitest';
import { getAccount } from '../../shared/store/accounts.ts';
import { newAccount } from '../support/api.ts';
import { runScript } from '../support/cli.ts';

const cli = (command: string, args: string[]) => runScript(command, args);

/** stderr without the CLI's note about the database it used (`database`, `warning` lines: docs/accounts.md). */
const withoutNote = (stderr: string): string =>
  stderr
    .split('\n')
    .filter((line) => line !== '' && !/^\{"(database|warning)":/.test(line))
    .join('\n');

describe('account:update', { timeout: 180_000 }, () => {
  it('stores the profile and reminders, account:list shows them, and empty values clear them', async () => {
    const { account } = await newAccount({ name: 'Profile Ltd' });
    const id = String(account.companyId);
    const updated = await cli('account:update', [
      '--company-id',
      id,
      '--name',
      'Profile Trading Ltd',
      '--email',
      'billing@profile.ng',
      '--address',
      '12 Marina Road\\nLagos',
      '--bank-name',
      'Zenith Bank',
      '--account-number',
      '1012345678',
      '--reminders',
      '-3,0,7,14',
    ]);
    expect(withoutNote(updated.stderr)).toBe('');
    expect(updated.code).toBe(0);
    const line = JSON.parse(updated.stdout);
    expect(line).toMatchObject({
      company_id: account.companyId,
      name: 'Profile Trading Ltd',
      email: 'billing@profile.ng',
      phone: null,
      address: '12 Marina Road\nLagos',
      bank_name: 'Zenith Bank',
      account_name: null,
      account_number: '1012345678',
      reminders: [-3, 0, 7, 14],
    });
    expect(JSON.stringify(line)).not.toContain('cursor');
    expect((await getAccount(account.companyId))?.profile).toEqual({
      email: 'billing@profile.ng',
      address: '12 Marina Road\nLagos',
      bankName: 'Zenith Bank',
      accountNumber: '1012345678',
    });

    const cleared = await cli('account:update', ['--company-id', id, '--email=', '--reminders=']);
    expect(cleared.code).toBe(0);
    const listed = (await cli('account:list', [])).stdout
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(listed.find((entry) => entry.company_id === account.companyId)).toMatchObject({
      name: 'Profile Trading Ltd',
      email: null,
      bank_name: 'Zenith Bank',
      reminders: [],
    });
    const stored = await getAccount(account.companyId);
    expect(stored?.profile.email).toBeUndefined();
    expect(stored?.reminderOffsets).toEqual([]);
  });

  it('stores the VAT setting and the invoice prefix (docs/tax.md "Setting up"), and prints them', async () => {
    const { account } = await newAccount({ name: 'Taxed Ltd' });
    const id = String(account.companyId);
    const updated = await cli('account:update', [
      '--company-id',
      id,
      '--vat',
      'inclusive',
      '--vat-rate',
      '7.5',
      '--invoice-prefix',
      'TX/',
      '--einvoice-service-id',
      '94ND90NR',
    ]);
    expect(withoutNote(updated.stderr)).toBe('');
    expect(JSON.parse(updated.stdout)).toMatchObject({
      vat: 'inclusive',
      vat_rate: '7.5',
      invoice_prefix: 'TX/',
      einvoice_service_id: '94ND90NR',
    });
    const stored = await getAccount(account.companyId);
    expect(stored).toMatchObject({
      vat: { mode: 'inclusive', rateUnits: 75_000 },
      invoicePrefix: 'TX/',
      einvoiceServiceId: '94ND90NR',
    });
    const removed = await cli('account:update', ['--company-id', id, '--einvoice-service-id=']);
    expect(JSON.parse(removed.stdout)).toMatchObject({ einvoice_service_id: null });
    expect((await getAccount(account.companyId))?.einvoiceServiceId).toBeUndefined();
  });

  it('an unknown account or an invalid value is one JSON error line and exit code 1', async () => {
    const unknown = await cli('account:update', ['--company-id', '999999999', '--phone', '+2348012345678']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(withoutNote(unknown.stderr))).toEqual({ error: 'No account with company_id 999999999.' });
    const invalid = await cli('account:update', ['--company-id', '1', '--email', 'nope']);
    expect(invalid.code).toBe(1);
    expect(Object.keys(JSON.parse(withoutNote(invalid.stderr)))).toEqual(['error']);
    expect(invalid.stdout).toBe('');
  });
});
