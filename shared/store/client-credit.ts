/**
 * A client's credit in the table (docs/bank-transfers.md "Client credit"; docs/data-design.md "Bank transfers"): one
 * balance item per client (`CREDIT#<co>#<clientId>`/`BALANCE`, versioned) and one line per change in the same
 * partition. Every change rewrites the balance on condition of the version read, with its line, in the transaction
 * of what caused it (a transfer, a payment from credit, a refund): so the balance is exactly Σ in − Σ applied − Σ
 * refunded whatever runs concurrently. Anything that adds credit later (credit notes) goes through `creditChangeActions`.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ClientCredit, CreditChangeKind, CreditSource } from '../domain/client-credit.ts';
import { NO_CREDIT } from '../domain/client-credit.ts';
import { newUlid } from '../ulid.ts';
import { itemOf } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { creditKeys, type Key, keys } from './keys.ts';
import { queryAll } from './query-all.ts';
import { putNew, type TransactItem } from './write-executor.ts';

export const clientCreditKey = (companyId: number, clientId: number): Key => keys.clientCredit(companyId, clientId);

export function creditFromItem(item: Item | undefined): ClientCredit {
  if (!item) return NO_CREDIT;
  const sources = Array.isArray(item.sources) ? (item.sources as Item[]) : [];
  return {
    balanceKobo: Number(item.balance ?? 0),
    receivedKobo: Number(item.received ?? 0),
    appliedKobo: Number(item.applied ?? 0),
    refundedKobo: Number(item.refunded ?? 0),
    sources: sources.map((source) => ({ reference: String(source.reference), amountKobo: Number(source.amount) })),
    version: Number(item.version ?? 0),
  };
}

/** The client's credit among a batch read's items (none yet: zero, version 0). */
export const creditFrom = (items: Map<string, Item>, companyId: number, clientId: number): ClientCredit =>
  creditFromItem(itemOf(items, clientCreditKey(companyId, clientId)));

/**
 * The credit as read is still the credit when the transaction commits: a write that decided from the balance (an
 * invoice created while the client had none, so no credit is applied to it) is retried if credit arrived meanwhile.
 */
export function creditUnchanged(
  table: string,
  ids: { companyId: number; clientId: number },
  credit: ClientCredit,
): TransactItem {
  const Key = clientCreditKey(ids.companyId, ids.clientId);
  return credit.version === 0
    ? { ConditionCheck: { TableName: table, Key, ConditionExpression: 'attribute_not_exists(PK)' } }
    : {
        ConditionCheck: {
          TableName: table,
          Key,
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': credit.version },
        },
      };
}

export async function readClientCredit(companyId: number, clientId: number): Promise<ClientCredit> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: clientCreditKey(companyId, clientId), ConsistentRead: true }),
  );
  return creditFromItem(out.Item);
}

/** One change of the credit: why, how much, and what it names (the transfer, the invoice, the refund). */
export interface CreditLine {
  kind: CreditChangeKind;
  amountKobo: number;
  /** YYYY-MM-DD HH:MM:SS (UTC). */
  recordedAt: string;
  /** The day it counts on for statements (YYYY-MM-DD, account time zone). */
  date: string;
  transferReference?: string;
  referenceCode?: string;
  paymentId?: number;
  /** A refund's parts: through Paystack (per transaction) and by hand. */
  refund?: { throughPaystack: CreditSource[]; byHandKobo: number };
}

/** The balance rewritten from `before` to `after` on condition of the version read, and the change's line. */
export function creditChangeActions(
  table: string,
  ids: { companyId: number; clientId: number },
  before: ClientCredit,
  after: ClientCredit,
  line: CreditLine,
): TransactItem[] {
  const { companyId, clientId } = ids;
  const pinned =
    before.version === 0
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': before.version } };
  const balance: Item = {
    ...clientCreditKey(companyId, clientId),
    entity: 'client_credit',
    company_id: companyId,
    client_id: clientId,
    balance: after.balanceKobo,
    received: after.receivedKobo,
    applied: after.appliedKobo,
    refunded: after.refundedKobo,
    sources: after.sources.map((source) => ({ reference: source.reference, amount: source.amountKobo })),
    version: before.version + 1,
    updated_at: line.recordedAt,
  };
  return [
    { Put: { TableName: table, Item: balance, ...pinned } },
    putNew(table, creditLineItem(ids, line, after)),
    creditListingAction(table, ids, after),
  ];
}

/**
 * The client's item in the account's credit listing: put with the balance while there is some, deleted when none is
 * left. Unconditional: the balance's own condition orders every change of one client's credit.
 */
function creditListingAction(
  table: string,
  ids: { companyId: number; clientId: number },
  after: ClientCredit,
): TransactItem {
  const key = keys.creditListing(ids.companyId, ids.clientId);
  if (after.balanceKobo <= 0) return { Delete: { TableName: table, Key: key } };
  const item: Item = {
    ...key,
    entity: 'credit_listing',
    company_id: ids.companyId,
    client_id: ids.clientId,
    balance: after.balanceKobo,
  };
  return { Put: { TableName: table, Item: item } };
}

/**
 * The account's clients holding credit and how much (clientId → kobo), or only `clientId`'s: one Query of the
 * account's credit listing, O(clients holding credit).
 */
export async function queryUnappliedCredit(companyId: number, clientId?: number): Promise<Map<number, number>> {
  const credits = new Map<number, number>();
  const items = await queryAll({
    KeyConditionExpression: clientId === undefined ? 'PK = :pk' : 'PK = :pk AND SK = :sk',
    ExpressionAttributeValues: {
      ':pk': creditKeys.listing(companyId),
      ...(clientId === undefined ? {} : { ':sk': keys.creditListing(companyId, clientId).SK }),
    },
  });
  for (const item of items) credits.set(Number(item.client_id), Number(item.balance ?? 0));
  return credits;
}

function creditLineItem(ids: { companyId: number; clientId: number }, line: CreditLine, after: ClientCredit): Item {
  return {
    ...keys.creditLine(ids.companyId, ids.clientId, newUlid()),
    entity: 'credit_line',
    company_id: ids.companyId,
    client_id: ids.clientId,
    kind: line.kind,
    amount: line.amountKobo,
    balance_after: after.balanceKobo,
    date: line.date,
    recorded_at: line.recordedAt,
    ...(line.transferReference ? { transfer_reference: line.transferReference } : {}),
    ...(line.referenceCode ? { reference_code: line.referenceCode } : {}),
    ...(line.paymentId === undefined ? {} : { payment_id: line.paymentId }),
    ...(line.refund
      ? {
          refund: {
            through_paystack: line.refund.throughPaystack.map((s) => ({
              reference: s.reference,
              amount: s.amountKobo,
            })),
            by_hand: line.refund.byHandKobo,
          },
        }
      : {}),
  };
}

function lineFromItem(item: Item): CreditLine {
  return {
    kind: item.kind as CreditChangeKind,
    amountKobo: Number(item.amount),
    recordedAt: String(item.recorded_at),
    date: String(item.date),
    ...(typeof item.transfer_reference === 'string' ? { transferReference: item.transfer_reference } : {}),
    ...(typeof item.reference_code === 'string' ? { referenceCode: item.reference_code } : {}),
    ...(typeof item.payment_id === 'number' ? { paymentId: item.payment_id } : {}),
  };
}

/** A client's credit lines dated in [from, to] (YYYY-MM-DD), oldest first: one Query of its partition. */
export async function queryCreditLines(
  companyId: number,
  clientId: number,
  range: { from: string; to: string },
): Promise<CreditLine[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :line)',
    FilterExpression: '#date BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#date': 'date' },
    ExpressionAttributeValues: {
      ':pk': creditKeys.partition(companyId, clientId),
      ':line': creditKeys.LINE_PREFIX,
      ':from': range.from,
      ':to': range.to,
    },
  });
  const lines = items.map(lineFromItem);
  return lines;
}
