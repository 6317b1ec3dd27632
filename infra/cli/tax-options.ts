/**
 * `account:update`'s tax options (docs/tax.md "Setting up"): the VAT new invoices are created with and the prefix of
 * their numbers. An invoice keeps the setting it was created with; a change applies to invoices created after it.
 */
import { parseDocumentPrefix, parseServiceId } from '../../shared/domain/document-number.ts';
import { parseVatRate, VAT_MODES, type VatMode } from '../../shared/domain/tax.ts';
import type { AccountChanges } from '../../shared/store/account-profile.ts';
import { type OptionSpec, UsageError } from './command.ts';

export const TAX_OPTIONS: Record<string, OptionSpec> = {
  vat: {
    type: 'string',
    placeholder: 'MODE',
    description: `VAT on new invoices: ${VAT_MODES.join('|')} (off: none added; exclusive: added to unit costs; inclusive: unit costs include it)`,
  },
  'vat-rate': {
    type: 'string',
    placeholder: 'PERCENT',
    description: 'the standard VAT rate of new invoices, 0–100 with at most 4 decimals (default 7.5)',
  },
  'invoice-prefix': {
    type: 'string',
    placeholder: 'TEXT',
    description: 'prefix of new invoice numbers (default INV-): ≤ 20 letters, digits, "-", "_", "/", "."; "" for none',
  },
  'einvoice-service-id': {
    type: 'string',
    placeholder: 'ID',
    description: 'the e-invoicing service id (8 letters or digits) the e-invoice IRN carries; "" removes it',
  },
};

type TaxChanges = Pick<AccountChanges, 'vatMode' | 'vatRateUnits' | 'invoicePrefix' | 'einvoiceServiceId'>;

/** The tax changes the options ask for (only those given); a bad value is a usage error. */
export function taxChangesFrom(values: Record<string, string | boolean | undefined>): TaxChanges {
  const changes: TaxChanges = {};
  const { vat } = values;
  if (typeof vat === 'string') {
    const mode = VAT_MODES.find((candidate) => candidate === vat.trim().toLowerCase());
    if (mode === undefined) throw new UsageError(`--vat must be one of ${VAT_MODES.join(', ')}.`);
    changes.vatMode = mode satisfies VatMode;
  }
  const rate = values['vat-rate'];
  if (typeof rate === 'string') {
    const parsed = parseVatRate(rate);
    if (!parsed.ok) throw new UsageError(`--vat-rate ${parsed.message}.`);
    changes.vatRateUnits = parsed.value;
  }
  const prefix = values['invoice-prefix'];
  if (typeof prefix === 'string') {
    const parsed = parseDocumentPrefix(prefix);
    if (!parsed.ok) throw new UsageError(`--invoice-prefix ${parsed.message}.`);
    changes.invoicePrefix = parsed.value;
  }
  const serviceId = values['einvoice-service-id'];
  if (typeof serviceId === 'string') {
    const parsed = serviceId.trim() === '' ? ({ ok: true, value: null } as const) : parseServiceId(serviceId);
    if (!parsed.ok) throw new UsageError(`--einvoice-service-id ${parsed.message}.`);
    changes.einvoiceServiceId = parsed.value;
  }
  return changes;
}
