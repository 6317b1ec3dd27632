/** Pure invoice rules: totals, payment state, and the invoice record built from a validated request. */
import { sumLineTotals } from './money';
import { toEpochSeconds } from './dates';
import type { AddInvoiceInput, MetadataValue } from '../schemas';
import { ValidationError } from '../errors';

export type PaymentStatus = 'unpaid' | 'partially_paid' | 'paid';

export interface InvoiceLine {
  id: string;
  name: string;
  description: string;
  quantity: number;
  unitCostKobo: number;
}

/** Mutable part of an invoice: the small header a payment rewrites. */
export interface InvoiceBalance {
  totalKobo: number;
  amountPaidKobo: number;
  amountDueKobo: number;
  paymentStatus: PaymentStatus;
  paidAt: string | null;
  version: number;
  updatedAt: string;
}

export interface ClientRecord {
  id: number;
  companyId: number;
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  website: string;
  address: string;
  type: string;
  settlementBank: string;
  accountName: string;
  accountNumber: string;
  createdAt: string;
  updatedAt: string;
}

/** Immutable part of an invoice: never rewritten after creation. */
export interface InvoiceDetails {
  id: number;
  companyId: number;
  clientId: number;
  referenceCode: string;
  feeBearer: string;
  dueDate: number;
  currency: string;
  createdAt: string;
  lines: InvoiceLine[];
  client: ClientRecord;
  merchantRef?: string;
  recipient?: string;
  recipientId?: string;
  tokenize?: boolean;
  metadata?: Record<string, MetadataValue>;
  cardToken?: string;
}

export interface Invoice {
  details: InvoiceDetails;
  balance: InvoiceBalance;
}

export function paymentStatusOf(totalKobo: number, amountPaidKobo: number): PaymentStatus {
  if (amountPaidKobo <= 0) return 'unpaid';
  return amountPaidKobo >= totalKobo ? 'paid' : 'partially_paid';
}

/** Σ quantity × unit_cost, exact; the total must be above zero and within the money cap (400 otherwise). */
export function invoiceTotal(input: Pick<AddInvoiceInput, 'items'>): number {
  const total = sumLineTotals(input.items.map((line) => ({ quantity: line.quantity, unitCostKobo: line.unit_cost })));
  if (!total.ok) throw new ValidationError([{ code: 'invalid_amount', field: 'items', message: `invoice total ${total.message}` }]);
  if (total.value <= 0) {
    throw new ValidationError([{ code: 'invalid_amount', field: 'items', message: 'the invoice total must be greater than zero' }]);
  }
  return total.value;
}

export interface NewInvoiceIds {
  invoiceId: number;
  referenceCode: string;
}

/** Line item ids derive from the invoice id (at most 100 lines): unique per account, no sequence needed. */
export const lineItemId = (invoiceId: number, index: number): string => String(invoiceId * 1000 + index + 1);

/** Builds a new invoice from a validated request (docs/api.md "Add invoice"); the optional fields are kept only when given. */
export function buildInvoice(input: AddInvoiceInput, client: ClientRecord, ids: NewInvoiceIds, currency: string, now: string): Invoice {
  const totalKobo = invoiceTotal(input);
  const details: InvoiceDetails = {
    id: ids.invoiceId,
    companyId: client.companyId,
    clientId: client.id,
    referenceCode: ids.referenceCode,
    feeBearer: input.fee_bearer as string,
    dueDate: toEpochSeconds(input.due_date),
    currency,
    createdAt: now,
    lines: input.items.map((line, index) => ({
      id: lineItemId(ids.invoiceId, index),
      name: line.item,
      description: line.description,
      quantity: line.quantity,
      unitCostKobo: line.unit_cost,
    })),
    client,
  };
  if (input.merchant_ref !== undefined) details.merchantRef = input.merchant_ref;
  if (input.recipient !== undefined) details.recipient = input.recipient;
  if (input.recipient === 'wallet' && input.recipient_id !== undefined) details.recipientId = input.recipient_id;
  if (input.tokenize !== undefined) details.tokenize = input.tokenize;
  if (input.metadata !== undefined) details.metadata = input.metadata;
  if (input.card_token !== undefined) details.cardToken = input.card_token;
  return {
    details,
    balance: {
      totalKobo,
      amountPaidKobo: 0,
      amountDueKobo: totalKobo,
      paymentStatus: 'unpaid',
      paidAt: null,
      version: 1,
      updatedAt: now,
    },
  };
}
