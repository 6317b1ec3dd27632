/**
 * Accounts the integration tests start from: a new account with settings changed (VAT, the e-invoicing profile …),
 * and the lines and items the VAT and e-invoice tests bill.
 */
import { clearAuthCache } from '../../shared/http/auth.ts';
import type { AccountChanges } from '../../shared/store/account-profile.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { newAccount } from './api.ts';

/** A new account with `changes` made; the authoriser's cache is cleared, so its key sees them at once. */
export async function accountWith(changes: AccountChanges, name?: string) {
  const created = await newAccount(name === undefined ? {} : { name });
  await updateAccount(created.account.companyId, changes);
  clearAuthCache();
  return created;
}

/** VAT at 7.5 %, added to the prices or included in them. */
export const vatAccount = (mode: 'exclusive' | 'inclusive' = 'exclusive') =>
  accountWith({ vatMode: mode, vatRateUnits: 75_000 });

/** An account with all an e-invoice needs (docs/e-invoice.md): e-mail, TIN, address and the service id. */
export const einvoicingAccount = (vatMode: 'exclusive' | 'off' = 'exclusive') =>
  accountWith(
    {
      profile: { email: 'billing@adaeze.example', taxId: '12345678-0001', address: '12 Adeola Odeku Street\nLagos' },
      vatMode,
      vatRateUnits: 75_000,
      einvoiceServiceId: '94ND90NR',
    },
    'Adaeze Textiles Limited',
  );

/** The e-invoice tests' three items: standard-rated with a discount, zero-rated and exempt. */
export const EINVOICE_ITEMS = [
  { item: 'Design', description: 'Three screens', unit_cost: '1500.50', quantity: '3', discount: '0.50' },
  { item: 'Rice', description: '50 kg bag', unit_cost: '75000.00', quantity: '2', tax: 'zero' },
  { item: 'First-aid kit', description: 'Kit', unit_cost: '12000.00', quantity: '1', tax: 'exempt' },
];

/** One line of a service at `unit_cost`, with whatever else a test sets (a discount, a VAT category). */
export const serviceLine = (unit_cost: string, extra: Record<string, unknown> = {}) => ({
  item: 'Service',
  description: 'Work',
  unit_cost,
  quantity: '1',
  ...extra,
});
