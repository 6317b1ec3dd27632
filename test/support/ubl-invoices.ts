/**
 * Invoices as add invoice stores them, and a merchant with everything an e-invoice needs: the inputs of the e-invoice
 * tests (test/unit/ubl-invoice.test.ts, test/unit/ubl-credit-note.test.ts).
 */
import { toEpochSeconds } from '../../shared/domain/dates.ts';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { type TaxCategory, taxInvoice, type VatMode } from '../../shared/domain/tax.ts';
import type { UblMerchant } from '../../shared/render/ubl/from-invoice.ts';
import { clientRecord } from './fixtures.ts';

export const MERCHANT: UblMerchant = {
  name: 'Acme Trading Ltd',
  timeZone: 'Africa/Lagos',
  profile: {
    email: 'billing@acme.example',
    phone: '+234 801 234 5678',
    address: '12 Adeola Odeku Street\nVictoria Island\nLagos',
    taxId: '12345678-0001',
    bankName: 'Zenith Bank',
    accountName: 'Acme Trading Ltd',
    accountNumber: '1012345678',
  },
  einvoiceServiceId: '94ND90NR',
};

export interface LineSpec {
  quantity: number;
  unitCostKobo: number;
  discountKobo: number;
  tax: TaxCategory;
}

/** An invoice as add invoice stores it: its split computed by the domain's tax rules. */
export function invoiceOf(specs: LineSpec[], mode: VatMode, amountPaidKobo = 0): Invoice {
  const vat = { mode, rateUnits: 75_000 };
  const split = taxInvoice(specs, vat);
  if (!split.ok) throw split.refusal;
  const { lines, taxes, ...totals } = split.value;
  return {
    details: {
      id: 1042,
      companyId: 7,
      clientId: 9,
      referenceCode: 'AB12CD34EF56GH78IJ90',
      feeBearer: 'client',
      dueDate: toEpochSeconds({ year: 2030, month: 12, day: 30 }),
      issueDate: toEpochSeconds({ year: 2030, month: 11, day: 15 }),
      number: 'INV-000042',
      currency: 'NGN',
      createdAt: '2030-11-15 09:30:00',
      notes: 'Thank you for your business.',
      terms: 'Net 45.',
      lines: specs.map((spec, index) => ({
        id: String(1042001 + index),
        name: `Item ${index + 1}`,
        description: index === 0 ? 'Three screens' : '',
        ...spec,
        netKobo: lines[index]!.netKobo,
      })),
      client: clientRecord({ id: 9, companyId: 7, name: 'Obi Ventures', address: '3 Marina\nLagos' }),
      tax: {
        vat,
        subtotalKobo: totals.subtotalKobo,
        discountTotalKobo: totals.discountTotalKobo,
        taxTotalKobo: totals.taxTotalKobo,
        taxes,
      },
    },
    balance: {
      totalKobo: totals.totalKobo,
      amountPaidKobo,
      amountDueKobo: totals.totalKobo - amountPaidKobo,
      paymentStatus: amountPaidKobo === 0 ? 'unpaid' : 'partially_paid',
      paidAt: null,
      paymentsCount: amountPaidKobo > 0 ? 1 : 0,
      deletedAt: null,
      version: 1,
      updatedAt: '2030-11-15 09:30:00',
    },
  };
}
