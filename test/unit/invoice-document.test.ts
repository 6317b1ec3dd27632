/** The document model of what a client sees (shared/render/invoice-document.ts) and money as people read it. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CalendarDate, toEpochSeconds } from '../../shared/domain/dates.ts';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { invoiceDocument, type Merchant } from '../../shared/render/invoice-document.ts';
import { formatMoney } from '../../shared/render/money-format.ts';
import { clientRecord } from '../support/fixtures.ts';

const DUE: CalendarDate = { year: 2030, month: 12, day: 30 };
const BEFORE_DUE: CalendarDate = { year: 2030, month: 12, day: 1 };
const AFTER_DUE: CalendarDate = { year: 2031, month: 1, day: 2 };

function invoice(overrides: { amountPaidKobo?: number; deletedAt?: string | null; createdAt?: string } = {}): Invoice {
  const totalKobo = 3 * 150_050 + 250_000;
  const amountPaidKobo = overrides.amountPaidKobo ?? 0;
  return {
    details: {
      id: 1042,
      companyId: 7,
      clientId: 9,
      referenceCode: 'AB12CD34EF56GH78IJ90',
      feeBearer: 'client',
      dueDate: toEpochSeconds(DUE),
      currency: 'NGN',
      createdAt: overrides.createdAt ?? '2030-11-30 23:30:00',
      hostedToken: 'T'.repeat(24),
      lines: [
        { id: '1042001', name: 'Design', description: 'Three screens', quantity: 3, unitCostKobo: 150_050 },
        { id: '1042002', name: 'Hosting', description: '  ', quantity: 1, unitCostKobo: 250_000 },
      ],
      client: clientRecord({
        id: 9,
        companyId: 7,
        name: 'Obi Ventures',
        createdAt: '2030-11-30 23:30:00',
        updatedAt: '2030-11-30 23:30:00',
      }),
    },
    balance: {
      totalKobo,
      amountPaidKobo,
      amountDueKobo: totalKobo - amountPaidKobo,
      paymentStatus: amountPaidKobo === 0 ? 'unpaid' : amountPaidKobo < totalKobo ? 'partially_paid' : 'paid',
      paidAt: null,
      paymentsCount: amountPaidKobo > 0 ? 1 : 0,
      deletedAt: overrides.deletedAt ?? null,
      version: 1,
      updatedAt: '2030-11-30 23:30:00',
    },
  };
}

const merchant = (profile: Merchant['profile'] = {}): Merchant => ({
  name: 'Acme Trading Ltd',
  timeZone: 'Africa/Lagos',
  profile,
});
const URL_OF_PAGE = 'https://pay.example.com/i/TTTTTTTTTTTTTTTTTTTTTTTT';

describe('invoiceDocument', () => {
  it('shows number, reference, dates, lines with totals, and the amounts in naira', () => {
    // Act
    const document = invoiceDocument({
      invoice: invoice({ amountPaidKobo: 100_000 }),
      merchant: merchant(),
      today: BEFORE_DUE,
      hostedUrl: URL_OF_PAGE,
    });
    // Assess
    expect(document).toMatchObject({
      number: '1042',
      referenceCode: 'AB12CD34EF56GH78IJ90',
      // 23:30 UTC on 30 Nov is 00:30 on 1 Dec in Lagos (UTC+1): the merchant's calendar date.
      issued: { text: '1 Dec 2030', iso: '2030-12-01' },
      due: { text: '30 Dec 2030', iso: '2030-12-30' },
      client: { name: 'Ada Obi', company: 'Obi Ventures' },
      total: '₦7,001.50',
      amountPaid: '₦1,000.00',
      amountDue: '₦6,001.50',
      status: 'partially_paid',
      statusLabel: 'Partially paid',
      hostedUrl: URL_OF_PAGE,
    });
    expect(document.lines).toEqual([
      { name: 'Design', description: 'Three screens', quantity: '3', unitCost: '₦1,500.50', lineTotal: '₦4,501.50' },
      { name: 'Hosting', quantity: '1', unitCost: '₦2,500.00', lineTotal: '₦2,500.00' },
    ]);
  });

  it('status: overdue after the due date, paid when settled, void when deleted (whatever it owes)', () => {
    const status = (inv: Invoice, today: CalendarDate) =>
      invoiceDocument({ invoice: inv, merchant: merchant(), today, hostedUrl: null }).status;
    expect(status(invoice(), BEFORE_DUE)).toBe('unpaid');
    expect(status(invoice(), DUE)).toBe('unpaid');
    expect(status(invoice(), AFTER_DUE)).toBe('overdue');
    expect(status(invoice({ amountPaidKobo: 700_150 }), AFTER_DUE)).toBe('paid');
    const voided = invoiceDocument({
      invoice: invoice({ deletedAt: '2030-12-02 10:00:00' }),
      merchant: merchant(),
      today: AFTER_DUE,
      hostedUrl: null,
    });
    expect(voided).toMatchObject({ status: 'void', statusLabel: 'Void', voidedAt: '2030-12-02 10:00:00' });
  });

  it('lists only the profile fields that are set, in order; none set → nothing listed', () => {
    const bare = invoiceDocument({ invoice: invoice(), merchant: merchant(), today: BEFORE_DUE, hostedUrl: null });
    expect(bare.merchant).toEqual({ name: 'Acme Trading Ltd', address: [], contacts: [] });
    expect(bare.paymentInstructions).toEqual([]);
    const full = invoiceDocument({
      invoice: invoice(),
      merchant: merchant({
        email: 'billing@acme.ng',
        taxId: 'TIN-1',
        address: '12 Marina Road\nLagos',
        bankName: 'Zenith Bank',
        accountNumber: '1012345678',
      }),
      today: BEFORE_DUE,
      hostedUrl: null,
    });
    expect(full.merchant).toEqual({
      name: 'Acme Trading Ltd',
      address: ['12 Marina Road', 'Lagos'],
      contacts: [
        { label: 'E-mail', value: 'billing@acme.ng' },
        { label: 'Tax ID', value: 'TIN-1' },
      ],
      email: 'billing@acme.ng',
    });
    expect(full.paymentInstructions).toEqual([
      { label: 'Bank', value: 'Zenith Bank' },
      { label: 'Account number', value: '1012345678' },
    ]);
    expect(JSON.stringify(full)).not.toMatch(/undefined|:""|"ada@example.com"|\+2348012345678/);
  });

  it("the client's name: the person's, with the company beside it; the company alone when the person's is empty", () => {
    const base = invoice();
    const named = (firstName: string, lastName: string, name: string) =>
      invoiceDocument({
        invoice: {
          ...base,
          details: { ...base.details, client: { ...base.details.client, firstName, lastName, name } },
        },
        merchant: merchant(),
        today: BEFORE_DUE,
        hostedUrl: null,
      }).client;
    expect(named('Ada', 'Obi', '')).toEqual({ name: 'Ada Obi', address: [] });
    expect(named('Ada', 'Obi', 'Ada Obi')).toEqual({ name: 'Ada Obi', address: [] });
    expect(named('', '', 'Obi Ventures')).toEqual({ name: 'Obi Ventures', address: [] });
  });
});

describe('formatMoney', () => {
  it('groups thousands, keeps two decimals and prefixes the sign (or the code)', () => {
    expect(formatMoney(0, 'NGN')).toBe('₦0.00');
    expect(formatMoney(5, 'NGN')).toBe('₦0.05');
    expect(formatMoney(150_050, 'NGN')).toBe('₦1,500.50');
    expect(formatMoney(99_999_999_999_999, 'NGN')).toBe('₦999,999,999,999.99');
    expect(formatMoney(123_456_789, 'USD')).toBe('$1,234,567.89');
    expect(formatMoney(100, 'KES')).toBe('KES 1.00');
  });

  it('reads back as the same amount for every amount within the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999_999 }), (kobo) => {
        const shown = formatMoney(kobo, 'NGN');
        expect(shown).toMatch(/^₦\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(Math.round(Number(shown.slice(1).replaceAll(',', '')) * 100)).toBe(kobo);
      }),
    );
  });
});

describe('invoiceDocument: what an invoice was issued with (docs/tax.md)', () => {
  const taxed = (): Invoice => {
    const base = invoice();
    return {
      ...base,
      details: {
        ...base.details,
        number: 'INV-000042',
        issueDate: toEpochSeconds({ year: 2030, month: 11, day: 15 }),
        notes: 'Thank you.',
        terms: 'Net 30.',
        client: { ...base.details.client, address: '14 Broad Street\n\nLagos ' },
        lines: [
          { ...base.details.lines[0]!, discountKobo: 50, tax: 'standard', netKobo: 450_100 },
          { ...base.details.lines[1]!, discountKobo: 0, tax: 'exempt', netKobo: 250_000 },
        ],
        tax: {
          vat: { mode: 'exclusive', rateUnits: 75_000 },
          subtotalKobo: 700_150,
          discountTotalKobo: 50,
          taxTotalKobo: 33_758,
          taxes: [
            { name: 'VAT', category: 'standard', rate: '7.5', taxableKobo: 450_100, amountKobo: 33_758 },
            { name: 'VAT', category: 'exempt', rate: '0', taxableKobo: 250_000, amountKobo: 0 },
          ],
        },
      },
    };
  };

  it('shows the number, issue date, address lines, notes, terms, each line’s discount and category, and the split', () => {
    const document = invoiceDocument({ invoice: taxed(), merchant: merchant(), today: BEFORE_DUE, hostedUrl: null });
    expect(document).toMatchObject({
      number: 'INV-000042',
      issued: { iso: '2030-11-15' },
      client: { address: ['14 Broad Street', 'Lagos'] },
      notes: 'Thank you.',
      terms: 'Net 30.',
    });
    expect(document.lines.map((line) => [line.discount, line.taxLabel])).toEqual([
      ['₦0.50', undefined],
      [undefined, 'Exempt from VAT'],
    ]);
    expect(document.split).toEqual([
      { label: 'Subtotal', amount: '₦7,001.50' },
      { label: 'Discount', amount: '-₦0.50' },
      { label: 'VAT 7.5% on ₦4,501.00', amount: '₦337.58' },
      { label: 'Exempt from VAT: ₦2,500.00', amount: '₦0.00' },
    ]);
  });

  it('shows no split for an invoice created before VAT, its id as its number; a voided one has nothing due', () => {
    const plain = invoiceDocument({ invoice: invoice(), merchant: merchant(), today: BEFORE_DUE, hostedUrl: null });
    expect(plain).toMatchObject({ number: '1042', split: [] });
    const voided = invoiceDocument({
      invoice: invoice({ deletedAt: '2030-12-01 10:00:00' }),
      merchant: merchant(),
      today: BEFORE_DUE,
      hostedUrl: null,
    });
    expect(voided).toMatchObject({ status: 'void', amountDue: '₦0.00' });
  });
});
