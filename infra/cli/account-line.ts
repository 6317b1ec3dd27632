/** What the account commands print of an account (docs/accounts.md): never its cursor secret, never a Paystack key. */
import { loadConfig } from '../../shared/config.ts';
import { feeSettingsView, paystackWebhookUrl } from '../../shared/domain/paystack-connection.ts';
import { formatPercent } from '../../shared/domain/percent.ts';
import { VAT_RATE_DECIMALS } from '../../shared/domain/tax.ts';
import type { Account } from '../../shared/store/accounts.ts';
import { DEFAULT_PREFERRED_BANK, type PaystackConnection } from '../../shared/store/paystack-connections.ts';

export function accountLine(account: Account, paystack?: PaystackConnection): Record<string, unknown> {
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
    vat: account.vat.mode,
    vat_rate: formatPercent(account.vat.rateUnits, VAT_RATE_DECIMALS),
    invoice_prefix: account.invoicePrefix,
    send_receipts: account.sendReceipts === true,
    einvoice_service_id: account.einvoiceServiceId ?? null,
    ...paystackFields(paystack),
  };
}

/**
 * The connection as docs/getting-paid-online.md "Connecting Paystack" shows it: the key's last 4 and the webhook URL to
 * paste into Paystack's dashboard while connected (null otherwise), and the fee settings.
 */
function paystackFields(paystack: PaystackConnection | undefined) {
  const connected = paystack?.keyLast4 !== undefined && paystack.hookId !== undefined;
  return {
    paystack_key_last4: connected ? paystack.keyLast4 : null,
    paystack_webhook_url: connected ? paystackWebhookUrl(loadConfig().publicBaseUrl(), paystack.hookId!) : null,
    paystack_fees: feeSettingsView(paystack?.fees),
    paystack_preferred_bank: paystack?.preferredBank ?? DEFAULT_PREFERRED_BANK,
  };
}

/** The keys accountLine prints, for `--help`. */
export const ACCOUNT_LINE_KEYS =
  '{"company_id","name","currency","time_zone","tokenization_enabled","created_at","disabled","disabled_at","email",' +
  '"phone","address","tax_id","bank_name","account_name","account_number","reminders","vat","vat_rate",' +
  '"invoice_prefix","send_receipts","paystack_key_last4","paystack_webhook_url","paystack_fees",' +
  '"paystack_preferred_bank"}';
