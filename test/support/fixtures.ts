/**
 * What several test files build alike: the API's add-invoice body a black-box test sends, and the domain's client and
 * invoice balance a unit test decides on. Each takes the fields a test turns on as overrides, so a test names only
 * what it is about.
 */
import type { ClientRecord, InvoiceBalance } from '../../shared/domain/invoice.ts';

export interface InvoiceLine {
  item: string;
  description: string;
  unit_cost: string;
  quantity: string;
}

/** An add-invoice body: Ada Obi at `email` (the client is found or created by it), due 30 Dec 2030, one ₦1,000 line. */
export function invoiceRequest(
  email: string,
  overrides: { first_name?: string; last_name?: string; due_date?: string; items?: InvoiceLine[] } = {},
) {
  return {
    client: {
      first_name: overrides.first_name ?? 'Ada',
      last_name: overrides.last_name ?? 'Obi',
      email,
      phone: '+2348012345678',
    },
    due_date: overrides.due_date ?? '12/30/2030',
    fee_bearer: 'client',
    items: overrides.items ?? [{ item: 'Goods', description: 'x', unit_cost: '1,000.00', quantity: '1' }],
  };
}

/** The invoice the kill tests pay: ₦10m, so that hundreds of small payments never pay it off. */
export const INVOICE_TO_PAY = invoiceRequest('kills@example.com', {
  first_name: 'Kill',
  last_name: 'Test',
  items: [{ item: 'Goods', description: 'x', unit_cost: '10,000,000.00', quantity: '1' }],
});

/** A client as the domain holds it: Ada Obi, id 7 of account 1, live. */
export function clientRecord(overrides: Partial<ClientRecord> = {}): ClientRecord {
  return {
    id: 7,
    companyId: 1,
    name: '',
    firstName: 'Ada',
    lastName: 'Obi',
    email: 'ada@example.com',
    phone: '+2348012345678',
    website: '',
    address: '',
    type: 'Customer',
    settlementBank: '',
    accountName: '',
    accountNumber: '',
    createdAt: '2026-01-01 00:00:00',
    updatedAt: '2026-01-01 00:00:00',
    deletedAt: null,
    ...overrides,
  };
}

/** An invoice's balance: ₦10.00 (1,000 kobo) due, nothing paid, not deleted. */
export function openBalance(overrides: Partial<InvoiceBalance> = {}): InvoiceBalance {
  return {
    totalKobo: 1000,
    amountPaidKobo: 0,
    amountDueKobo: 1000,
    paymentStatus: 'unpaid',
    paidAt: null,
    paymentsCount: 0,
    deletedAt: null,
    version: 1,
    updatedAt: '2026-01-01 00:00:00',
    ...overrides,
  };
}
