/**
 * Invoices in the table (docs/data-design.md): a small header — the balance a payment rewrites, the latest send's
 * state, the reminders, the overdue stamp, the wake index keys — and an immutable body, both under the reference code.
 * This module owns every read and write of the header; the others ask it for the action they commit. Every invariant
 * of a write is a condition of its transaction.
 */
import type {
  Invoice,
  InvoiceBalance,
  InvoiceDetails,
  InvoiceMail,
  InvoiceReminders,
  PaymentStatus,
} from '../domain/invoice.ts';
import type { MetadataValue } from '../domain/invoice-request.ts';
import { creditedKobo, type PaymentRecord } from '../domain/payment-record.ts';
import type { AcceptedReversal } from '../domain/payment-reversal.ts';
import { monotonicUlids } from '../ulid.ts';
import { batchGet, itemOf } from './batch.ts';
import { invoiceIssueAttributes, invoiceIssueFromItem, lineTaxAttributes, lineTaxFromItem } from './invoice-issue.ts';
import {
  clientAttributes,
  clientFromAttributes,
  type Item,
  paymentAttributes,
  paymentFromItem,
  paymentItem,
} from './items.ts';
import { invoiceIndexKeys, type Key, keys, wakeIndexKeys } from './keys.ts';
import { TABLE } from './table.ts';
import { putNew, type TransactItem } from './write-executor.ts';

/** The two items of an invoice, for a batch read. */
export const invoiceKeys = (referenceCode: string): Key[] => [
  keys.invoiceHeader(referenceCode),
  keys.invoiceBody(referenceCode),
];

/** The invoice among a batch read's items; undefined when either of its items is missing. */
export function invoiceFrom(items: Map<string, Item>, referenceCode: string): Invoice | undefined {
  const header = itemOf(items, keys.invoiceHeader(referenceCode));
  const body = itemOf(items, keys.invoiceBody(referenceCode));
  return header && body ? { details: detailsFromItem(body), balance: balanceFromItem(header) } : undefined;
}

/** Current state (balance, items, client) of each invoice, by reference code, in batched reads. */
export async function loadInvoices(referenceCodes: readonly string[]): Promise<Map<string, Invoice>> {
  const unique = [...new Set(referenceCodes)];
  const items = await batchGet(unique.flatMap(invoiceKeys));
  const invoices = new Map<string, Invoice>();
  for (const code of unique) {
    const invoice = invoiceFrom(items, code);
    if (invoice) invoices.set(code, invoice);
  }
  return invoices;
}

/** The latest payment an invoice header keeps a copy of (GET /payments/{reference_code} reads it in one round trip). */
export function latestPaymentFrom(items: Map<string, Item>, referenceCode: string): PaymentRecord | undefined {
  const latest = itemOf(items, keys.invoiceHeader(referenceCode))?.latest_payment;
  return latest && typeof latest === 'object' ? paymentFromItem(latest as Item) : undefined;
}

/** The key that keeps `merchantRef` unique within the account. */
export const merchantRefKey = (companyId: number, merchantRef: string): Key => keys.merchantRef(companyId, merchantRef);

/**
 * The puts of a new invoice (header, body, hosted link, merchant_ref when it has one), each on condition it is new;
 * `listedAt` is the instant invoice history lists it at (default its creation: `invoiceHeaderItem`).
 */
export function newInvoiceActions(table: string, invoice: Invoice, listedAt?: string): TransactItem[] {
  const { details } = invoice;
  const actions = [putNew(table, invoiceHeaderItem(invoice, listedAt)), putNew(table, invoiceBodyItem(details))];
  if (details.hostedToken !== undefined)
    actions.push(putNew(table, hostedLinkItem(details.hostedToken, details.companyId, details.referenceCode)));
  if (details.merchantRef !== undefined)
    actions.push(putNew(table, merchantRefItem(details.companyId, details.merchantRef, details.referenceCode)));
  return actions;
}

/** A change of the header: on `when` (with its `values`), set `set` (each attribute its own value) and `remove`. */
interface HeaderChange {
  when: string;
  values?: Item;
  set?: Item;
  /** SET clauses spelled out (with their values in `values`), for what is more than a value. */
  setClauses?: readonly string[];
  remove?: readonly string[];
  names?: Record<string, string>;
}

function headerUpdate(table: string, referenceCode: string, change: HeaderChange): TransactItem {
  const set = Object.entries(change.set ?? {});
  const clauses = [...set.map(([name]) => `${name} = :new_${name}`), ...(change.setClauses ?? [])];
  const remove = change.remove ?? [];
  const values = { ...change.values, ...Object.fromEntries(set.map(([name, value]) => [`:new_${name}`, value])) };
  return {
    Update: {
      TableName: table,
      Key: keys.invoiceHeader(referenceCode),
      ConditionExpression: change.when,
      UpdateExpression: [
        clauses.length > 0 && `SET ${clauses.join(', ')}`,
        remove.length > 0 && `REMOVE ${remove.join(', ')}`,
      ]
        .filter(Boolean)
        .join(' '),
      ...(change.names ? { ExpressionAttributeNames: change.names } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/** The header still says it is the account's, at the version the decision read, and not voided. */
const AS_READ = 'company_id = :company AND version = :version AND attribute_not_exists(deleted_at)';

/** The wake index's key attributes (GSI2), removed when nothing more can be due for the invoice. */
const WAKE_INDEX_KEYS = [TABLE.wakeIndex.partitionKey, TABLE.wakeIndex.sortKey] as const;

const nextMarker = monotonicUlids();

/** The wake index's attributes that wake an invoice at the next sweep (a fresh marker each time: keys.ts `wakeNow`). */
const wakeNowAttributes = (referenceCode: string, now: Date = new Date()) =>
  wakeIndexKeys.wakeNow(referenceCode, now.toISOString().slice(0, 10), nextMarker());

/** What a payment or a reversal rewrites of the balance. */
function balanceChange(after: InvoiceBalance): Item {
  const { amount_paid, amount_due, payment_status, paid_at, payments_count, version, updated_at } =
    balanceAttributes(after);
  return { amount_paid, amount_due, payment_status, paid_at, payments_count, version, updated_at };
}

/**
 * The transaction of a payment: rewrite the invoice header from `before` to `after`, and put the payment. The version
 * pins the state the decision was made on; the balance conditions restate the invariants themselves, so no
 * interleaving can overpay or lose an update. A payment that settles the invoice takes it out of the wake index.
 */
export function paymentTransaction(
  table: string,
  before: InvoiceBalance,
  after: InvoiceBalance,
  payment: PaymentRecord,
): TransactItem[] {
  const header = headerUpdate(table, payment.referenceCode, {
    when: `${AS_READ} AND amount_due >= :amount AND amount_due > :zero`,
    values: { ':company': payment.companyId, ':version': before.version, ':amount': creditedKobo(payment), ':zero': 0 },
    set: { ...balanceChange(after), latest_payment: paymentAttributes(payment) },
    remove: after.amountDueKobo === 0 ? WAKE_INDEX_KEYS : [],
  });
  return [header, putNew(table, paymentItem(payment))];
}

/**
 * A credit note's header (store/credit-notes.ts): less due by what it took off, its total counted towards the next
 * one's cap, on condition that the header is at the version the decision read (so concurrent credit notes on one
 * invoice decide one after the other, never above the cap) and not voided; out of the wake index once nothing is due.
 */
export function creditNoteHeaderAction(
  table: string,
  invoice: { referenceCode: string; companyId: number },
  before: InvoiceBalance,
  after: InvoiceBalance,
): TransactItem {
  const { amount_due, payment_status, paid_at, version, updated_at } = balanceAttributes(after);
  return headerUpdate(table, invoice.referenceCode, {
    when: AS_READ,
    values: { ':company': invoice.companyId, ':version': before.version },
    set: {
      amount_due,
      payment_status,
      paid_at,
      version,
      updated_at,
      credited: after.creditedKobo ?? 0,
      credit_notes_total: after.creditNotesKobo ?? 0,
    },
    remove: after.amountDueKobo === 0 ? WAKE_INDEX_KEYS : [],
  });
}

/**
 * A reversal's header (store/payment-reversals.ts): the balance restored, the latest payment moved back, and — when
 * something is due again — woken at the next sweep, unconditionally (if it was notified overdue before, the sweep
 * sends no second `invoice.overdue`: docs/data-design.md "Wake index"). On condition that the header is at the version
 * the decision read and still holds the payment's amount.
 */
export function reversalHeaderAction(table: string, accepted: AcceptedReversal): TransactItem {
  const { payment, invoice, balance, latest } = accepted;
  const wakes = balance.amountDueKobo > 0 && balance.deletedAt === null;
  return headerUpdate(table, payment.referenceCode, {
    when: 'company_id = :company AND version = :version AND amount_paid >= :amount',
    values: { ':company': payment.companyId, ':version': invoice.balance.version, ':amount': creditedKobo(payment) },
    set: {
      ...balanceChange(balance),
      ...(latest.kind === 'set' ? { latest_payment: paymentAttributes(latest.payment) } : {}),
      ...(wakes ? wakeNowAttributes(payment.referenceCode) : {}),
    },
    remove: latest.kind === 'remove' ? ['latest_payment'] : [],
  });
}

/**
 * A deletion (void): set `deleted_at` on condition that the header is still the state the decision read (its version:
 * a payment committed meanwhile changes it) and still has no payment; out of the wake index.
 */
export function deletionTransaction(
  table: string,
  referenceCode: string,
  companyId: number,
  before: InvoiceBalance,
  after: InvoiceBalance,
): TransactItem {
  return headerUpdate(table, referenceCode, {
    when: `${AS_READ} AND amount_paid = :zero`,
    values: { ':company': companyId, ':version': before.version, ':zero': 0 },
    set: { deleted_at: after.deletedAt, version: after.version, updated_at: after.updatedAt },
    remove: WAKE_INDEX_KEYS,
  });
}

/**
 * A send: the header says `queued` for its job, on condition that it is still the state the decision read — its
 * `version`, which the send leaves alone so that a concurrent payment is not refused — and not voided.
 */
export function sendHeaderAction(
  table: string,
  send: { referenceCode: string; companyId: number; jobId: string; version: number },
): TransactItem {
  return headerUpdate(table, send.referenceCode, {
    when: AS_READ,
    values: { ':company': send.companyId, ':version': send.version },
    set: { mail_status: 'queued', mail_job_id: send.jobId },
    remove: ['sent_at', 'mail_error'],
  });
}

/**
 * The latest send's outcome: the header's mail fields set to `mail`, on condition that they still describe the same
 * job — and, with `version`, that the balance is still the one read (the outcome's event shows it).
 */
export function mailHeaderAction(
  table: string,
  referenceCode: string,
  mail: InvoiceMail,
  version?: number,
): TransactItem {
  // The first acceptance is kept (reminders go only to an invoice sent at least once: docs/tax.md "Reminders").
  const firstSent = mail.sentAt === null ? {} : { ':first_sent': mail.sentAt };
  return headerUpdate(table, referenceCode, {
    when: `mail_job_id = :job${version === undefined ? '' : ' AND version = :version'}`,
    values: { ':job': mail.jobId, ...(version === undefined ? {} : { ':version': version }), ...firstSent },
    setClauses: mail.sentAt === null ? [] : ['first_sent_at = if_not_exists(first_sent_at, :first_sent)'],
    set: {
      mail_status: mail.status,
      ...(mail.sentAt === null ? {} : { sent_at: mail.sentAt }),
      ...(mail.error === null ? {} : { mail_error: mail.error }),
    },
    remove: [...(mail.sentAt === null ? ['sent_at'] : []), ...(mail.error === null ? ['mail_error'] : [])],
  });
}

/**
 * Pauses or resumes the invoice's reminders, on condition that it is still the state the decision read and not voided.
 * Resuming an open invoice wakes it (`wake`), so that a reminder due today is sent today.
 */
export function remindersPauseAction(
  table: string,
  change: { referenceCode: string; companyId: number; version: number; paused: boolean; wake: boolean },
): TransactItem {
  return headerUpdate(table, change.referenceCode, {
    when: AS_READ,
    values: { ':company': change.companyId, ':version': change.version },
    set: { reminders_paused: change.paused, ...(change.wake ? wakeNowAttributes(change.referenceCode) : {}) },
  });
}

/** Wakes the invoice at the next sweep, on condition that it is still open (store/wake-index.ts `wakeOpenInvoices`). */
export const wakeAction = (table: string, referenceCode: string): TransactItem =>
  headerUpdate(table, referenceCode, {
    when: 'attribute_exists(#pk) AND amount_due > :zero AND attribute_not_exists(deleted_at)',
    names: { '#pk': TABLE.partitionKey },
    values: { ':zero': 0 },
    set: wakeNowAttributes(referenceCode),
  });

/** What the wake sweep writes on one invoice header (services/reminders.ts). */
export interface SweepChange {
  referenceCode: string;
  /** The index sort key read (a wake written since makes the write fail: the next sweep decides again). */
  indexKey: string;
  /** The next wake date (YYYY-MM-DD); undefined takes the invoice out of the index. */
  nextWake: string | undefined;
  /** Set when the write carries events: they describe the header at this version, still open. */
  version?: number;
  /** `YYYY-MM-DD HH:MM:SS`: stamps `overdue_notified_at`, on condition it was never stamped. */
  overdueAt?: string;
  /** Appends a reminder, on condition it is not paused and the reminders sent are still the `sentBefore` read. */
  reminder?: { offset: number; sentAt: string; sentBefore: number };
}

export function sweepHeaderAction(table: string, change: SweepChange): TransactItem {
  const conditions = ['attribute_exists(#pk)', '#sk = :read'];
  const values: Item = { ':read': change.indexKey };
  const set: Item = {};
  const setClauses: string[] = [];
  if (change.version !== undefined) {
    conditions.push('version = :version', 'amount_due > :zero', 'attribute_not_exists(deleted_at)');
    Object.assign(values, { ':version': change.version, ':zero': 0 });
  }
  if (change.overdueAt !== undefined) {
    conditions.push('attribute_not_exists(overdue_notified_at)');
    set.overdue_notified_at = change.overdueAt;
  }
  const { reminder } = change;
  if (reminder) {
    conditions.push('(attribute_not_exists(reminders_paused) OR reminders_paused = :false)');
    conditions.push(reminder.sentBefore === 0 ? 'attribute_not_exists(reminders)' : 'size(reminders) = :sent_before');
    setClauses.push('reminders = list_append(if_not_exists(reminders, :none), :reminder)');
    const appended = [{ offset: reminder.offset, sent_at: reminder.sentAt }];
    Object.assign(values, { ':false': false, ':none': [], ':reminder': appended });
    if (reminder.sentBefore > 0) values[':sent_before'] = reminder.sentBefore;
  }
  if (change.nextWake !== undefined)
    set[TABLE.wakeIndex.sortKey] = wakeIndexKeys.sort(change.nextWake, change.referenceCode);
  return headerUpdate(table, change.referenceCode, {
    when: conditions.join(' AND '),
    names: { '#pk': TABLE.partitionKey, '#sk': TABLE.wakeIndex.sortKey },
    values,
    set,
    setClauses,
    remove: change.nextWake === undefined ? WAKE_INDEX_KEYS : [],
  });
}

/* The invoice's items: its header and its body as the table holds them (attribute names are snake_case). */

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
    ...invoiceIssueAttributes(details),
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
    ...(typeof item.first_sent_at === 'string' ? { everSent: true } : {}),
    ...(typeof item.credited === 'number' ? { creditedKobo: item.credited } : {}),
    ...(typeof item.credit_notes_total === 'number' ? { creditNotesKobo: item.credit_notes_total } : {}),
  };
}

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
  return { ...details, ...invoiceIssueFromItem(item) };
}
