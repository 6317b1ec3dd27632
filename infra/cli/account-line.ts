/** What the account commands print of an account (docs/accounts.md): never its cursor secret. */
import type { Account } from '../../shared/store/accounts.ts';

export function accountLine(account: Account): Record<string, unknown> {
  const { profile } = account;
  return {
    company_id: account.companyId,
    name: account.name,
    currency: account.currency,
    time_zone: account.timeZone,
    tokenization_enabled: account.tokenizationEnabled,
    created_at: account.createdAt,
    disabled: account.disabledAt !== undefined,
    disabled_at: account.disabledAt ?? null,
    email: profile.email ?? null,
    phone: profile.phone ?? null,
    address: profile.address ?? null,
    tax_id: profile.taxId ?? null,
    bank_name: profile.bankName ?? null,
    account_name: profile.accountName ?? null,
    account_number: profile.accountNumber ?? null,
    reminders: account.reminderOffsets,
  };
}

/** The keys accountLine prints, for `--help`. */
export const ACCOUNT_LINE_KEYS =
  '{"company_id","name","currency","time_zone","tokenization_enabled","created_at","disabled","disabled_at","email",' +
  '"phone","address","tax_id","bank_name","account_name","account_number","reminders"}';
