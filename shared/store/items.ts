/** Domain records ↔ DynamoDB items. Attribute names are snake_case; keys come from keys.ts only. */

import { contactFields } from '../domain/client.ts';
import { fromEpochSeconds, toIsoDate } from '../domain/dates.ts';
import type {
  ClientRecord,
  Invoice,
  InvoiceBalance,
  InvoiceDetails,
  InvoiceMail,
  InvoiceReminders,
  PaymentStatus,
} from '../domain/invoice.ts';
import type { MetadataValue } from '../domain/invoice-request.ts';
import type { OnlinePayment, PaymentRecord } from '../domain/payment-record.ts';
import { clientIndexKeys, invoiceIndexKeys, keys, paymentIndexKeys, wakeIndexKeys } from './keys.ts';

export type Item = Record<string, unknown>;

export function clientAttributes(client: ClientRecord): Item {
  return {
    client_id: client.id,
    company_id: client.companyId,
    name: client.name,
    ...contactFields(client),
    client_type: client.type,
    settlement_bank: client.settlementBank,
    account_name: client.accountName,
    account_number: client.accountNumber,
    created_at: client.createdAt,
    updated_at: client.updatedAt,
    ...(client.deletedAt === null ? {} : { deleted_at: client.deletedAt }),
  };
}

export function clientFromAttributes(item: Item): ClientRecord {
  return {
    id: Number(item.client_id),
    companyId: Number(item.company_id),
    name: String(item.name ?? ''),
    firstName: String(item.first_name ?? ''),
    lastName: String(item.last_name ?? ''),
    email: String(item.email ?? ''),
    phone: String(item.phone ?? ''),
    website: String(item.website ?? ''),
    address: String(item.address ?? ''),
    type: String(item.client_type ?? 'Customer'),
    settlementBank: String(item.settlement_bank ?? ''),
    accountName: String(item.account_name ?? ''),
    accountNumber: String(item.account_number ?? ''),
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
    deletedAt: typeof item.deleted_at === 'string' ? item.deleted_at : null,
  };
}

/** A client by id; only a live client is in the index (GSI1), so `GET /clients` never lists a deleted one. */
export const clientItem = (client: ClientRecord): Item => ({
  ...keys.client(client.companyId, client.id),
  ...(client.deletedAt === null
    ? {
        GSI1PK: clientIndexKeys.partition(client.companyId),
        GSI1SK: clientIndexKeys.sort(client.createdAt, client.id),
      }
    : {}),
  entity: 'client',
  ...clientAttributes(client),
});
export const clientEmailItem = (client: ClientRecord): Item => ({
  ...keys.clientEmail(client.companyId, client.email),
  entity: 'client_email',
  ...clientAttributes(client),
});

export function balanceAttributes(balance: InvoiceBalance): Item {
  return {
    total: balance.totalKobo,
    amount_paid: balance.amountPaidKobo,
    amount_due: balance.amountDueKobo,
    payment_status: balance.paymentStatus,
    paid_at: balance.paidAt,
    payments_count: balance.paymentsCount,
    version: balance.version,
    updated_at: balance.updatedAt,
    ...(balance.deletedAt === null ? {} : { deleted_at: balance.deletedAt }),
    ...(balance.inAging ? { in_aging: true } : {}),
  };
}

/**
 * An invoice header; while something may be due it is in the wake index (GSI2) too — a new one wakes at the next sweep,
 * which decides with the account's schedule as it is then (docs/data-design.md "Wake index").
 */
export function invoiceHeaderItem(invoice: Invoice): Item {
  const { referenceCode, createdAt } = invoice.details;
  return {
    ...keys.invoiceHeader(referenceCode),
    GSI1PK: invoiceIndexKeys.partition(invoice.details.companyId),
    GSI1SK: invoiceIndexKeys.sort(invoice.details.createdAt, referenceCode),
    ...(invoice.balance.amountDueKobo > 0 && invoice.balance.deletedAt === null
      ? wakeIndexKeys.wakeNow(referenceCode, createdAt.slice(0, 10), 'new')
      : {}),
    entity: 'invoice_header',
    company_id: invoice.details.companyId,
    ...balanceAttributes(invoice.balance),
  };
}

export function invoiceBodyItem(details: InvoiceDetails): Item {
  return {
    ...keys.invoiceBody(details.referenceCode),
    entity: 'invoice_body',
    company_id: details.companyId,
    invoice_id: details.id,
    client_id: details.clientId,
    reference_code: details.referenceCode,
    fee_bearer: details.feeBearer,
    due_date: details.dueDate,
    currency: details.currency,
    created_at: details.createdAt,
    lines: details.lines.map((line) => ({
      id: line.id,
      name: line.name,
      description: line.description,
      quantity: line.quantity,
      unit_cost: line.unitCostKobo,
    })),
    client: clientAttributes(details.client),
    merchant_ref: details.merchantRef,
    recipient: details.recipient,
    recipient_id: details.recipientId,
    tokenize: details.tokenize,
    metadata: details.metadata,
    card_token: details.cardToken,
    hosted_token: details.hostedToken,
  };
}

/** The hosted link of an invoice: its token → its account and reference code (invoice-pages.ts). */
export function hostedLinkItem(token: string, companyId: number, referenceCode: string): Item {
  return { ...keys.hostedLink(token), entity: 'hosted_link', company_id: companyId, reference_code: referenceCode };
}

/** The item that keeps a merchant_ref unique within its account, naming its invoice. */
export function merchantRefItem(companyId: number, merchantRef: string, referenceCode: string): Item {
  return {
    ...keys.merchantRef(companyId, merchantRef),
    entity: 'merchant_ref',
    company_id: companyId,
    reference_code: referenceCode,
  };
}

export function balanceFromItem(item: Item): InvoiceBalance {
  return {
    totalKobo: Number(item.total),
    amountPaidKobo: Number(item.amount_paid),
    amountDueKobo: Number(item.amount_due),
    paymentStatus: item.payment_status as PaymentStatus,
    paidAt: (item.paid_at as string | null | undefined) ?? null,
    paymentsCount: Number(item.payments_count ?? 0),
    deletedAt: typeof item.deleted_at === 'string' ? item.deleted_at : null,
    version: Number(item.version),
    updatedAt: String(item.updated_at),
    ...(typeof item.mail_job_id === 'string' ? { mail: mailFromHeader(item) } : {}),
    ...(item.in_aging === true ? { inAging: true } : {}),
    ...remindersFromHeader(item),
    ...(typeof item.overdue_notified_at === 'string' ? { overdueNotified: true } : {}),
  };
}

/** The reminders on an invoice header (written by the wake sweep and the reminders route: store/wake-index.ts); nothing when none. */
function remindersFromHeader(item: Item): { reminders?: InvoiceReminders } {
  const sent = Array.isArray(item.reminders)
    ? (item.reminders as Item[]).map((entry) => ({ offset: Number(entry.offset), sentAt: String(entry.sent_at) }))
    : [];
  const paused = item.reminders_paused === true;
  return sent.length > 0 || paused ? { reminders: { sent, paused } } : {};
}

/** The latest send's state on an invoice header (written by store/mail.ts). */
function mailFromHeader(item: Item): InvoiceMail {
  return {
    status: item.mail_status as InvoiceMail['status'],
    jobId: String(item.mail_job_id),
    sentAt: typeof item.sent_at === 'string' ? item.sent_at : null,
    error: typeof item.mail_error === 'string' ? item.mail_error : null,
  };
}

export function detailsFromItem(item: Item): InvoiceDetails {
  const lines = (item.lines as Item[]).map((line) => ({
    id: String(line.id),
    name: String(line.name),
    description: String(line.description),
    quantity: Number(line.quantity),
    unitCostKobo: Number(line.unit_cost),
  }));
  const details: InvoiceDetails = {
    id: Number(item.invoice_id),
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    referenceCode: String(item.reference_code),
    feeBearer: String(item.fee_bearer),
    dueDate: Number(item.due_date),
    currency: String(item.currency),
    createdAt: String(item.created_at),
    lines,
    client: clientFromAttributes(item.client as Item),
  };
  if (typeof item.merchant_ref === 'string') details.merchantRef = item.merchant_ref;
  if (typeof item.recipient === 'string') details.recipient = item.recipient;
  if (typeof item.recipient_id === 'string') details.recipientId = item.recipient_id;
  if (typeof item.tokenize === 'boolean') details.tokenize = item.tokenize;
  if (item.metadata && typeof item.metadata === 'object')
    details.metadata = { ...(item.metadata as Record<string, MetadataValue>) };
  if (typeof item.card_token === 'string') details.cardToken = item.card_token;
  if (typeof item.hosted_token === 'string') details.hostedToken = item.hosted_token;
  return details;
}

export function paymentItem(payment: PaymentRecord): Item {
  return {
    ...keys.payment(payment.companyId, payment.id),
    GSI1PK: paymentIndexKeys.partition(payment.companyId),
    GSI1SK: paymentIndexKeys.sort(toIsoDate(fromEpochSeconds(payment.transactionDate)), payment.recordedId),
    entity: 'payment',
    ...paymentAttributes(payment),
  };
}

/** A payment's own attributes: its item, and the copy an invoice header keeps of its latest payment. */
export function paymentAttributes(payment: PaymentRecord): Item {
  return {
    payment_id: payment.id,
    company_id: payment.companyId,
    client_id: payment.clientId,
    invoice_id: payment.invoiceId,
    reference_code: payment.referenceCode,
    amount: payment.amountKobo,
    currency: payment.currency,
    transaction_date: payment.transactionDate,
    channel: payment.channel,
    created_at: payment.createdAt,
    recorded_id: payment.recordedId,
    ...(payment.viewBytes === undefined ? {} : { view_bytes: payment.viewBytes }),
    ...(payment.previousPaymentId === undefined ? {} : { previous_payment_id: payment.previousPaymentId }),
    ...(payment.inTotals ? { in_totals: true } : {}),
    ...(payment.reversal ? { reversed_at: payment.reversal.reversedAt, reversal_reason: payment.reversal.reason } : {}),
    ...onlineAttributes(payment.online),
  };
}

export function paymentFromItem(item: Item): PaymentRecord {
  return {
    id: Number(item.payment_id),
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    invoiceId: Number(item.invoice_id),
    referenceCode: String(item.reference_code),
    amountKobo: Number(item.amount),
    currency: String(item.currency),
    transactionDate: Number(item.transaction_date),
    channel: String(item.channel),
    createdAt: String(item.created_at),
    recordedId: String(item.recorded_id),
    ...(typeof item.view_bytes === 'number' ? { viewBytes: item.view_bytes } : {}),
    ...(typeof item.previous_payment_id === 'number' ? { previousPaymentId: item.previous_payment_id } : {}),
    ...(item.in_totals === true ? { inTotals: true } : {}),
    ...(typeof item.reversed_at === 'string'
      ? { reversal: { reversedAt: item.reversed_at, reason: String(item.reversal_reason ?? '') } }
      : {}),
    ...onlineFromItem(item),
  };
}

/**
 * What an online payment adds to its payment item (and to the copy an invoice header keeps of its latest payment):
 * one map attribute `online` (docs/data-design.md "Getting paid online"). Manual payments have none.
 */
export function onlineAttributes(online: OnlinePayment | undefined): Item {
  if (!online) return {};
  const { refund, card } = online;
  return {
    online: {
      transaction_id: online.transactionId,
      reference: online.reference,
      gateway_response: online.gatewayResponse,
      message: online.message,
      amount_charged: online.amountChargedKobo,
      fees: online.feesKobo,
      ...(refund ? { refund: { amount: refund.amountKobo, status: refund.status, id: refund.id } } : {}),
      ...(card
        ? {
            card: {
              token: card.token,
              brand: card.brand,
              last4: card.last4,
              exp_month: card.expMonth,
              exp_year: card.expYear,
            },
          }
        : {}),
    },
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function onlineFromItem(item: Item): { online?: OnlinePayment } {
  const online = item.online;
  if (!online || typeof online !== 'object') return {};
  const map = online as Item;
  const refund = map.refund as Item | undefined;
  const card = map.card as Item | undefined;
  return {
    online: {
      transactionId: text(map.transaction_id),
      reference: text(map.reference),
      gatewayResponse: text(map.gateway_response),
      message: text(map.message),
      amountChargedKobo: Number(map.amount_charged ?? 0),
      feesKobo: Number(map.fees ?? 0),
      ...(refund
        ? {
            refund: {
              amountKobo: Number(refund.amount),
              status: text(refund.status),
              id: typeof refund.id === 'string' ? refund.id : null,
            },
          }
        : {}),
      ...(card
        ? {
            card: {
              token: text(card.token),
              brand: text(card.brand),
              last4: text(card.last4),
              expMonth: text(card.exp_month),
              expYear: text(card.exp_year),
            },
          }
        : {}),
    },
  };
}
