/**
 * An invoice's two items as the table holds them (docs/data-design.md; attribute names are snake_case): the header and
 * the body, each to and from its domain value. The reads and writes that use them are invoices.ts's, which owns the
 * header.
 */
import type { CollectionState } from '../domain/card-collection.ts';
import { fromIsoDate, toIsoDate } from '../domain/dates.ts';
import type {
  Invoice,
  InvoiceBalance,
  InvoiceDetails,
  InvoiceMail,
  InvoiceReminders,
  PaymentStatus,
} from '../domain/invoice.ts';
import type { MetadataValue } from '../domain/invoice-request.ts';
import { invoiceIssueAttributes, invoiceIssueFromItem, lineTaxAttributes, lineTaxFromItem } from './invoice-issue.ts';
import { clientAttributes, clientFromAttributes, type Item } from './items.ts';
import { invoiceIndexKeys, keys, wakeIndexKeys } from './keys.ts';

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
    ...(balance.creditedKobo === undefined ? {} : { credited: balance.creditedKobo }),
    ...(balance.creditNotesKobo === undefined ? {} : { credit_notes_total: balance.creditNotesKobo }),
  };
}

/**
 * An invoice header; while something may be due it is in the wake index (GSI2) too — a new one wakes at the next sweep,
 * which decides with the account's schedule as it is then (docs/data-design.md "Wake index").
 */
export function invoiceHeaderItem(invoice: Invoice, listedAt: string = invoice.details.createdAt): Item {
  const { referenceCode, createdAt } = invoice.details;
  return {
    ...keys.invoiceHeader(referenceCode),
    GSI1PK: invoiceIndexKeys.partition(invoice.details.companyId),
    GSI1SK: invoiceIndexKeys.sort(listedAt, referenceCode),
    ...(invoice.balance.amountDueKobo > 0 && invoice.balance.deletedAt === null
      ? wakeIndexKeys.wakeNow(referenceCode, createdAt.slice(0, 10), 'new')
      : {}),
    entity: 'invoice_header',
    company_id: invoice.details.companyId,
    ...balanceAttributes(invoice.balance),
    // Created with its send queued (a recurring invoice with `send`): the mail fields `sendHeaderAction` would write.
    ...(invoice.balance.mail
      ? { mail_status: invoice.balance.mail.status, mail_job_id: invoice.balance.mail.jobId }
      : {}),
    ...(invoice.balance.reminders?.paused ? { reminders_paused: true } : {}),
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
      ...lineTaxAttributes(line),
    })),
    client: clientAttributes(details.client),
    merchant_ref: details.merchantRef,
    recipient: details.recipient,
    recipient_id: details.recipientId,
    tokenize: details.tokenize,
    metadata: details.metadata,
    card_token: details.cardToken,
    hosted_token: details.hostedToken,
    recurring_id: details.recurring?.seriesId,
    period: details.recurring?.period,
    ...invoiceIssueAttributes(details),
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
    ...(typeof item.first_sent_at === 'string' ? { everSent: true } : {}),
    ...collectionFromHeader(item),
    ...(typeof item.credited === 'number' ? { creditedKobo: item.credited } : {}),
    ...(typeof item.credit_notes_total === 'number' ? { creditNotesKobo: item.credit_notes_total } : {}),
  };
}

/** The collection on an invoice header (written by `collectionHeaderAction`); nothing before the first decline. */
function collectionFromHeader(item: Item): { collection?: CollectionState } {
  const kept = item.collection as Item | undefined;
  if (!kept || typeof kept !== 'object') return {};
  return {
    collection: {
      status: kept.status === 'failed' ? 'failed' : 'retrying',
      attempts: Number(kept.attempts),
      lastError: String(kept.last_error ?? ''),
      nextAttempt: typeof kept.next_attempt === 'string' ? fromIsoDate(kept.next_attempt) : null,
      firstAttempt: fromIsoDate(String(kept.first_attempt)),
    },
  };
}

export const collectionAttribute = (state: CollectionState): Item => ({
  status: state.status,
  attempts: state.attempts,
  last_error: state.lastError,
  next_attempt: state.nextAttempt === null ? null : toIsoDate(state.nextAttempt),
  first_attempt: toIsoDate(state.firstAttempt),
});

/** The reminders on an invoice header (written by `sweepHeaderAction` and `remindersPauseAction`); nothing when none. */
function remindersFromHeader(item: Item): { reminders?: InvoiceReminders } {
  const sent = Array.isArray(item.reminders)
    ? (item.reminders as Item[]).map((entry) => ({ offset: Number(entry.offset), sentAt: String(entry.sent_at) }))
    : [];
  const paused = item.reminders_paused === true;
  return sent.length > 0 || paused ? { reminders: { sent, paused } } : {};
}

/** The latest send's state on an invoice header (written by `sendHeaderAction` and `mailHeaderAction`). */
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
    ...lineTaxFromItem(line),
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
  if (typeof item.recurring_id === 'string')
    details.recurring = { seriesId: item.recurring_id, period: Number(item.period) };
  return { ...details, ...invoiceIssueFromItem(item) };
}
