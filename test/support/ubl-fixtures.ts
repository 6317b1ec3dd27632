/**
 * Representative e-invoice documents (docs/e-invoice.md "Tests"): each VAT situation the API can produce, an invoice
 * or a credit note, as the mapping from an invoice would build them. Parties are made up; the GLN is a valid number
 * in GS1's example range.
 */
import type { UblDocument, UblLine, UblParty } from '../../shared/render/ubl/document.ts';

export const SUPPLIER: UblParty = {
  name: 'Adaeze Textiles Limited',
  tradingName: 'Adaeze Fabrics',
  tin: '12345678-0001',
  registrationNumber: 'RC 1234567',
  address: {
    lines: ['12 Adeola Odeku Street', 'Victoria Island'],
    city: 'Lagos',
    postalZone: '101241',
    region: 'Lagos',
  },
  email: 'billing@adaeze.example',
  phone: '+234 801 234 5678',
  endpoint: { id: '5060012345679', scheme: '0088' },
};

export const CUSTOMER: UblParty = {
  name: 'Bola Foods Plc',
  tin: '87654321-0001',
  address: {
    lines: ['Plot 5', 'Trans-Amadi Industrial Layout', 'Block C', 'Gate 2'],
    city: 'Port Harcourt',
    region: 'Rivers',
  },
  email: 'accounts@bolafoods.example',
};

const ISSUED = { year: 2026, month: 3, day: 2 };
const DUE = { year: 2026, month: 4, day: 1 };

const line = (
  id: string,
  name: string,
  fields: Partial<UblLine> & Pick<UblLine, 'quantity' | 'unitPriceKobo'>,
): UblLine => ({
  id,
  name,
  category: 'S',
  ratePercent: '7.5',
  ...fields,
});

const invoice = (fields: Partial<UblDocument> & Pick<UblDocument, 'lines'>): UblDocument => ({
  type: 'Invoice',
  number: 'INV-000001',
  issueDate: ISSUED,
  dueDate: DUE,
  currency: 'NGN',
  pricesIncludeVat: false,
  supplier: SUPPLIER,
  customer: CUSTOMER,
  ...fields,
});

const creditNote = (fields: Partial<UblDocument> & Pick<UblDocument, 'lines'>): UblDocument => ({
  ...invoice(fields),
  type: 'CreditNote',
  number: 'CN-000001',
  dueDate: undefined,
  creditedInvoice: { number: 'INV-000001', issueDate: ISSUED },
  ...fields,
});

export const STANDARD_ONLY = invoice({
  note: 'Thank you for your business.',
  paymentTerms: 'Net 30 days',
  irn: 'INV000001-94ND90NR-20260302',
  payeeAccount: { accountNumber: '0123456789', accountName: 'Adaeze Textiles Limited', bank: 'Guaranty Trust Bank' },
  lines: [
    line('1', 'Ankara fabric, 6 yards', { quantity: 12, unitPriceKobo: 1_850_000, description: 'Wax print, assorted' }),
    line('2', 'Tailoring', { quantity: 3, unitPriceKobo: 2_500_050, unitCode: 'EA' }),
  ],
});

export const MIXED_WITH_DISCOUNTS = invoice({
  number: 'INV-000002',
  exemptionReason: 'Exempt supply: medical and pharmaceutical products',
  lines: [
    line('1', 'Laptop bag', { quantity: 4, unitPriceKobo: 1_999_999, discountKobo: 333_333 }),
    line('2', 'Printer paper, A4 ream', {
      quantity: 10,
      unitPriceKobo: 450_000,
      discountKobo: 50_000,
      category: 'Z',
      ratePercent: '0',
    }),
    line('3', 'First-aid kit', { quantity: 2, unitPriceKobo: 1_200_000, category: 'E', ratePercent: '0' }),
    line('4', 'Delivery', { quantity: 1, unitPriceKobo: 250_000 }),
  ],
});

export const INCLUSIVE_PRICES = invoice({
  number: 'INV-000003',
  pricesIncludeVat: true,
  lines: [
    line('1', 'Hair treatment', { quantity: 3, unitPriceKobo: 1_000_000, discountKobo: 100_001 }),
    line('2', 'Shampoo, 500 ml', { quantity: 7, unitPriceKobo: 333_333 }),
    line('3', 'Rice, 50 kg bag', { quantity: 2, unitPriceKobo: 7_500_000, category: 'Z', ratePercent: '0' }),
  ],
});

export const CREDIT_BY_AMOUNT = creditNote({
  note: 'Overcharge on delivery',
  lines: [line('1', 'Credit: overcharge on delivery', { quantity: 1, unitPriceKobo: 1_000_000 })],
});

export const CREDIT_BY_ITEMS = creditNote({
  number: 'CN-000002',
  irn: 'CN000002-94ND90NR-20260302',
  lines: [
    line('1', 'Ankara fabric, 6 yards', { quantity: 2, unitPriceKobo: 1_850_000, discountKobo: 100_000 }),
    line('2', 'Printer paper, A4 ream', { quantity: 1, unitPriceKobo: 450_000, category: 'Z', ratePercent: '0' }),
  ],
});

/** The account's VAT setting `off`: nothing is subject to VAT, so neither party shows a VAT identifier. */
export const VAT_OFF = invoice({
  number: 'INV-000004',
  prepaidKobo: 500_000,
  supplier: { ...SUPPLIER, endpoint: undefined },
  lines: [
    line('1', 'Graphic design', {
      quantity: 5,
      unitPriceKobo: 3_000_000,
      discountKobo: 250_000,
      category: 'O',
      ratePercent: undefined,
    }),
    line('2', 'Printing', { quantity: 100, unitPriceKobo: 15_000, category: 'O', ratePercent: undefined }),
  ],
});

export const REPRESENTATIVE: Record<string, UblDocument> = {
  'standard-rated only': STANDARD_ONLY,
  'mixed standard, zero-rated and exempt, with discounts': MIXED_WITH_DISCOUNTS,
  'prices including VAT, converted to net': INCLUSIVE_PRICES,
  'a credit note by amount': CREDIT_BY_AMOUNT,
  'a credit note by items': CREDIT_BY_ITEMS,
  'VAT off (not subject to VAT)': VAT_OFF,
};
