/**
 * The receivables items of one write (docs/data-design.md "Receivables"): an `ADD` to the due date's aging row and
 * client aging row, the open-invoice item put or deleted, and the client's ledger line — all in the transaction of
 * the invoice, payment, reversal or void they describe, so they never disagree with it.
 */
import type { LedgerLine, ReceivableChange } from '../domain/receivables.ts';
import { monotonicUlids } from '../ulid.ts';
import type { Item } from './items.ts';
import { type Key, keys, ledgerKeys } from './keys.ts';
import { putNew, type TransactItem } from './write-executor.ts';

/** Rows per due date at most: shard 0, and 1–7 for writes that collided (see `agingShard`). */
export const AGING_SHARDS = 8;

/**
 * The row a write's attempt adds to: shard 0 on a first attempt, so that an account whose writes never collide keeps
 * one row per due date (reads stay small); after a cancelled attempt a random one of the others, so that a burst on
 * one due date spreads instead of conflicting again (docs/data-design.md "Receivables").
 */
export function agingShard(attempt: number, random: () => number = Math.random): number {
  if (attempt <= 1) return 0;
  return 1 + Math.min(AGING_SHARDS - 2, Math.floor(random() * (AGING_SHARDS - 1)));
}

function rowAdd(
  table: string,
  key: Key,
  change: Omit<ReceivableChange, 'line'>,
  extra: Item,
  countChanges: boolean,
): TransactItem {
  const names: Record<string, string> = { '#outstanding': 'outstanding', '#open': 'open_count' };
  const values: Item = { ':outstanding': change.outstandingDeltaKobo, ':open': change.openCountDelta };
  const sets = Object.keys(extra).map((name, i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = extra[name];
    return `#s${i} = :s${i}`;
  });
  if (countChanges) {
    names['#changes'] = 'changes';
    values[':one'] = 1;
  }
  return {
    Update: {
      TableName: table,
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')} ADD #outstanding :outstanding, #open :open${countChanges ? ', #changes :one' : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The open-invoice item: exists exactly while the invoice is open. */
export function openInvoiceItem(
  change: Pick<ReceivableChange, 'companyId' | 'clientId' | 'referenceCode' | 'dueDate'>,
): Item {
  return {
    ...keys.openInvoice(change.companyId, change.dueDate, change.referenceCode),
    entity: 'open_invoice',
    company_id: change.companyId,
    client_id: change.clientId,
    reference_code: change.referenceCode,
    due_date: change.dueDate,
  };
}

/** Live writes order their same-second lines by this: increasing within the process. */
const nextLedgerId = monotonicUlids();

/** A line's key; without `suffix`, the deterministic one of a migrated line (docs/data-design.md "Receivables"). */
export const ledgerLineKey = (line: LedgerLine, suffix?: string): Key =>
  keys.ledgerLine(
    line.companyId,
    line.clientId,
    ledgerKeys.sort(line.date, line.recordedAt, suffix ?? ledgerKeys.migrated(line.type, line.sourceId)),
  );

export function ledgerItem(line: LedgerLine, suffix?: string): Item {
  return {
    ...ledgerLineKey(line, suffix),
    entity: 'ledger_line',
    company_id: line.companyId,
    client_id: line.clientId,
    date: line.date,
    recorded_at: line.recordedAt,
    type: line.type,
    reference_code: line.referenceCode,
    description: line.description,
    debit: line.debitKobo,
    credit: line.creditKobo,
    source_id: line.sourceId,
    ...(line.number === undefined ? {} : { number: line.number }),
    ...(line.split
      ? { subtotal: line.split.subtotalKobo, discount: line.split.discountKobo, tax: line.split.taxKobo }
      : {}),
  };
}

/** The aging row's and client aging row's `ADD`s of a change, on `shard` (rows name their due date and client in their keys only: small rows, cheap reads). */
export function agingRowActions(table: string, change: Omit<ReceivableChange, 'line'>, shard: number): TransactItem[] {
  const { companyId, clientId, dueDate } = change;
  return [
    rowAdd(table, keys.agingRow(companyId, dueDate, shard), change, { entity: 'aging_row' }, false),
    rowAdd(
      table,
      keys.clientAgingRow(companyId, clientId, dueDate, shard),
      change,
      { entity: 'client_aging_row' },
      true,
    ),
  ];
}

/** What a row holds: Σ outstanding and open count of its invoices (and, on a client row, its writes). */
export interface RowAmounts {
  outstandingKobo: number;
  openCount: number;
  changes?: number;
}

/**
 * Whole rows as the `ADD`s of `agingRowActions` leave them (the same attributes). Pure: for writing rows directly (the
 * bench's seeding, which bypasses the API).
 */
export const agingRowItem = (companyId: number, dueDate: string, shard: number, amounts: RowAmounts): Item => ({
  ...keys.agingRow(companyId, dueDate, shard),
  entity: 'aging_row',
  outstanding: amounts.outstandingKobo,
  open_count: amounts.openCount,
});

export const clientAgingRowItem = (
  companyId: number,
  clientId: number,
  dueDate: string,
  shard: number,
  amounts: RowAmounts,
): Item => ({
  ...keys.clientAgingRow(companyId, clientId, dueDate, shard),
  entity: 'client_aging_row',
  outstanding: amounts.outstandingKobo,
  open_count: amounts.openCount,
  changes: amounts.changes ?? 0,
});

/** Every receivables item of a change (none for an invoice not yet counted: `undefined`). */
export function receivableActions(
  table: string,
  change: ReceivableChange | undefined,
  attempt: number,
): TransactItem[] {
  if (!change) return [];
  const actions = agingRowActions(table, change, agingShard(attempt));
  if (change.openInvoice === 'put') actions.push({ Put: { TableName: table, Item: openInvoiceItem(change) } });
  if (change.openInvoice === 'delete')
    actions.push({
      Delete: { TableName: table, Key: keys.openInvoice(change.companyId, change.dueDate, change.referenceCode) },
    });
  actions.push(putNew(table, ledgerItem(change.line, nextLedgerId())));
  if (change.withholdingLine) actions.push(putNew(table, ledgerItem(change.withholdingLine, nextLedgerId())));
  if (change.creditExcessLine) actions.push(putNew(table, ledgerItem(change.creditExcessLine, nextLedgerId())));
  return actions;
}
