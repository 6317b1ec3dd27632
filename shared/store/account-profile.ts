/**
 * The merchant's profile on the account item (docs/accounts.md "The merchant's profile"; docs/data-design.md): one
 * attribute per field, absent when unset, and the reminder schedule. `account:update` changes them; the auth cache
 * (docs/api.md "Authentication") means keyed routes may see a change up to 60 s late, the hosted page at once.
 */
import { DEFAULT_INVOICE_PREFIX } from '../domain/document-number.ts';
import type { MerchantProfile, ProfileField } from '../domain/merchant-profile.ts';
import { DEFAULT_VAT, VAT_MODES, type VatMode, type VatSetting } from '../domain/tax.ts';
import type { Item } from './items.ts';

/** Attribute name of each profile field on the account item. */
export const PROFILE_ATTRIBUTES: Record<ProfileField, string> = {
  email: 'profile_email',
  phone: 'profile_phone',
  address: 'profile_address',
  taxId: 'profile_tax_id',
  bankName: 'profile_bank_name',
  accountName: 'profile_account_name',
  accountNumber: 'profile_account_number',
};

export const REMINDER_OFFSETS_ATTRIBUTE = 'reminder_offsets';
/** `account:update --send-receipts` (docs/getting-paid-online.md "Receipt e-mails"): absent means false. */
export const SEND_RECEIPTS_ATTRIBUTE = 'send_receipts';

export function profileFromItem(item: Item): MerchantProfile {
  const profile: MerchantProfile = {};
  for (const [field, attribute] of Object.entries(PROFILE_ATTRIBUTES) as [ProfileField, string][]) {
    const value = item[attribute];
    if (typeof value === 'string' && value !== '') profile[field] = value;
  }
  return profile;
}

/**
 * What an account's invoices are issued with (docs/tax.md): its VAT setting, its invoice numbers' prefix and its
 * e-invoicing service id (docs/e-invoice.md "The IRN").
 */
export const TAX_ATTRIBUTES = {
  vatMode: 'vat_mode',
  vatRate: 'vat_rate',
  invoicePrefix: 'invoice_prefix',
  einvoiceServiceId: 'einvoice_service_id',
} as const;

export function vatFromItem(item: Item): VatSetting {
  const mode = VAT_MODES.find((candidate) => candidate === item[TAX_ATTRIBUTES.vatMode]) ?? DEFAULT_VAT.mode;
  const rate = item[TAX_ATTRIBUTES.vatRate];
  return { mode, rateUnits: typeof rate === 'number' ? rate : DEFAULT_VAT.rateUnits };
}

export function invoicePrefixFromItem(item: Item): string {
  const prefix = item[TAX_ATTRIBUTES.invoicePrefix];
  return typeof prefix === 'string' ? prefix : DEFAULT_INVOICE_PREFIX;
}

export function einvoiceServiceIdFromItem(item: Item): string | undefined {
  const serviceId = item[TAX_ATTRIBUTES.einvoiceServiceId];
  return typeof serviceId === 'string' && serviceId !== '' ? serviceId : undefined;
}

export function reminderOffsetsFromItem(item: Item): number[] {
  const value = item[REMINDER_OFFSETS_ATTRIBUTE];
  return Array.isArray(value) ? value.map(Number).filter(Number.isInteger) : [];
}

/** What `account:update` changes: a profile field set to undefined is cleared; absent ones stay as they are. */
export interface AccountChanges {
  name?: string;
  profile?: { [F in ProfileField]?: string | undefined };
  /** The new schedule; `[]` clears it. */
  reminderOffsets?: number[];
  vatMode?: VatMode;
  /** In ten-thousandths of a percent (domain/tax.ts). */
  vatRateUnits?: number;
  /** `""` numbers invoices without a prefix. */
  invoicePrefix?: string;
  /** E-mail a receipt for every recorded payment. */
  sendReceipts?: boolean;
  /** The e-invoicing service id; `null` removes it. */
  einvoiceServiceId?: string | null;
}

/** The UpdateExpression parts of `changes` (SET and REMOVE clauses, names and values); empty when nothing changes. */
export function accountChangeExpression(changes: AccountChanges) {
  const set: string[] = [];
  const remove: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assign = (attribute: string, value: unknown) => {
    const index = Object.keys(names).length;
    names[`#a${index}`] = attribute;
    if (value === undefined) remove.push(`#a${index}`);
    else {
      values[`:v${index}`] = value;
      set.push(`#a${index} = :v${index}`);
    }
  };
  if (changes.name !== undefined) assign('name', changes.name);
  for (const [field, value] of Object.entries(changes.profile ?? {}) as [ProfileField, string | undefined][])
    assign(PROFILE_ATTRIBUTES[field], value);
  if (changes.reminderOffsets !== undefined)
    assign(REMINDER_OFFSETS_ATTRIBUTE, changes.reminderOffsets.length > 0 ? changes.reminderOffsets : undefined);
  if (changes.vatMode !== undefined) assign(TAX_ATTRIBUTES.vatMode, changes.vatMode);
  if (changes.vatRateUnits !== undefined) assign(TAX_ATTRIBUTES.vatRate, changes.vatRateUnits);
  if (changes.invoicePrefix !== undefined) assign(TAX_ATTRIBUTES.invoicePrefix, changes.invoicePrefix);
  if (changes.sendReceipts !== undefined) assign(SEND_RECEIPTS_ATTRIBUTE, changes.sendReceipts || undefined);
  if (changes.einvoiceServiceId !== undefined)
    assign(TAX_ATTRIBUTES.einvoiceServiceId, changes.einvoiceServiceId ?? undefined);
  const clauses = [
    set.length > 0 ? `SET ${set.join(', ')}` : '',
    remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
  ];
  return { expression: clauses.filter(Boolean).join(' '), names, values };
}
