/**
 * Invoices in the table (docs/data-design.md): a small header — the balance a payment rewrites, the latest send's
 * state, the reminders, the overdue stamp, the wake index keys — and an immutable body, both under the reference code.
 * This module owns every read and write of the header; the others ask it for the action they commit. Every invariant
 * of a write is a condition of its transaction.
 */

import type { CollectionState } from '../domain/card-collection.ts';
import type { Invoice, InvoiceBalance, InvoiceMail } from '../domain/invoice.ts';
import { creditedKobo, type PaymentRecord } from '../domain/payment-record.ts';
import type { AcceptedReversal } from '../domain/payment-reversal.ts';
import { monotonicUlids } from '../ulid.ts';
import { batchGet, itemOf } from './batch.ts';
import {
  balanceAttributes,
  balanceFromItem,
  collectionAttribute,
  detailsFromItem,
  invoiceBodyItem,
  invoiceHeaderItem,
} from './invoice-items.ts';
import { hostedLinkItem, merchantRefItem } from './invoice-lookups.ts';
import { type Item, paymentAttributes, paymentFromItem, paymentItem } from './items.ts';
import { type Key, keys, wakeIndexKeys } from './keys.ts';
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

/**
 * The puts of a new invoice (header, body, hosted link, merchant_ref when it has one), each on condition it is new;
 * `listedAt` is the instant invoice history lists it at (default its creation: `invoiceHeaderItem`).
 */
export function newInvoiceActions(table: string, invoice: Invoice, listedAt?: string): TransactItem[] {
  const { details } = invoice;
  const actions = [putNew(table, invoiceHeaderItem(invoice, listedAt)), putNew(table, invoiceBodyItem(details))];
  if (details.hostedToken !== undefined) actions.push(putNew(table, hostedLinkItem(details.hostedToken, details)));
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
 * job — and, with `version`, that the balance is still the one read (the outcome's event shows it). `wake` puts the
 * invoice on the wake index for the next sweep (its first acceptance: domain/reminders.ts `wakesOnFirstSend`).
 */
export function mailHeaderAction(
  table: string,
  referenceCode: string,
  mail: InvoiceMail,
  read: { version?: number; wake?: boolean } = {},
): TransactItem {
  const { version } = read;
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
      ...(read.wake ? wakeNowAttributes(referenceCode) : {}),
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

/**
 * The invoice's `collection` after a decline, on condition that the header exists and its collection is still the one
 * before this decline (`attempts` one less): an attempt's decline is written once.
 */
export function collectionHeaderAction(table: string, referenceCode: string, state: CollectionState): TransactItem {
  const before = state.attempts - 1;
  return headerUpdate(table, referenceCode, {
    when: `attribute_exists(#pk) AND ${before === 0 ? 'attribute_not_exists(#collection)' : '#collection.attempts = :before'}`,
    names: { '#pk': TABLE.partitionKey, '#collection': 'collection' },
    values: { ...(before === 0 ? {} : { ':before': before }), ':collection': collectionAttribute(state) },
    setClauses: ['#collection = :collection'],
  });
}
