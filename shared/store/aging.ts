/**
 * Reads of the receivables items for the aging report (docs/data-design.md "Receivables"): the account's aging rows,
 * its client aging rows (all, or one client's), and its open invoices by due date. Every read is consistent, so it
 * counts every write acknowledged before it.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AgingRow, ClientAgingRow } from '../domain/aging.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { agingKeys, clientAgingKeys, openInvoiceKeys } from './keys.ts';
import { queryAll } from './query-all.ts';

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** The account's aging rows: O(distinct due dates), whatever the number of invoices. */
export async function queryAgingRows(companyId: number): Promise<AgingRow[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': agingKeys.partition(companyId) },
  });
  // SK = <due YYYY-MM-DD>#<shard>
  return items.map((item) => ({
    dueDate: String(item.SK).slice(0, 10),
    outstandingKobo: numberOf(item.outstanding),
    openCount: numberOf(item.open_count),
  }));
}

export interface ClientAgingRead {
  rows: ClientAgingRow[];
  /** Σ `changes` of the rows read: grows with every write of these clients (a statement compares two reads). */
  changes: number;
}

/** The client aging rows of the account, or of one client only. */
export async function queryClientAgingRows(companyId: number, clientId?: number): Promise<ClientAgingRead> {
  const items = await queryAll({
    KeyConditionExpression: clientId === undefined ? 'PK = :pk' : 'PK = :pk AND begins_with(SK, :client)',
    ExpressionAttributeValues: {
      ':pk': clientAgingKeys.partition(companyId),
      ...(clientId === undefined ? {} : { ':client': clientAgingKeys.client(clientId) }),
    },
  });
  let changes = 0;
  const rows = items.map((item) => {
    changes += numberOf(item.changes);
    // SK = <clientId, 12 digits>#<due YYYY-MM-DD>#<shard>
    const [client, dueDate] = String(item.SK).split('#');
    return {
      clientId: Number(client),
      dueDate: dueDate!,
      outstandingKobo: numberOf(item.outstanding),
      openCount: numberOf(item.open_count),
    };
  });
  return { rows, changes };
}

export interface OpenInvoiceEntry {
  referenceCode: string;
  clientId: number;
  /** YYYY-MM-DD */
  dueDate: string;
}

export interface OpenInvoicePage {
  entries: OpenInvoiceEntry[];
  /** Each entry's position (where a page continuing right after it starts). */
  positions: Record<string, string>[];
  next: Record<string, string> | undefined;
}

/** True when a listing position lies in this account's open invoices. */
export const isAccountOpenInvoicePosition = (position: Record<string, string>, companyId: number): boolean =>
  position.PK === openInvoiceKeys.partition(companyId) && typeof position.SK === 'string';

const entryOf = (item: Item): OpenInvoiceEntry => ({
  referenceCode: String(item.reference_code),
  clientId: numberOf(item.client_id),
  // SK = <due YYYY-MM-DD>#<referenceCode>
  dueDate: String(item.SK).slice(0, 10),
});

/**
 * The account's open invoices due in [`from`, `to`] (YYYY-MM-DD, either end optional), oldest due first, `limit` at a
 * time after `after`; with `clientId`, only that client's (a filter: the read goes on until the page is full).
 */
export async function queryOpenInvoices(
  companyId: number,
  range: { from?: string | undefined; to?: string | undefined },
  limit: number,
  options: { after?: Record<string, string> | undefined; clientId?: number | undefined },
): Promise<OpenInvoicePage> {
  const found: Item[] = [];
  let after: Record<string, unknown> | undefined = options.after;
  do {
    // One more than the page tells whether another page exists. A filter applies after `Limit`: none then.
    const limitNow = options.clientId === undefined ? { Limit: limit + 1 - found.length } : {};
    const result = await documentClient().send(
      new QueryCommand({
        ...openInvoiceQuery(companyId, range, options.clientId),
        ...limitNow,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    found.push(...(result.Items ?? []));
    after = result.LastEvaluatedKey;
  } while (after && found.length <= limit);
  const page = found.slice(0, limit);
  const positions = page.map((item) => ({ PK: String(item.PK), SK: String(item.SK) }));
  return { entries: page.map(entryOf), positions, next: found.length > limit ? positions.at(-1) : undefined };
}

function openInvoiceQuery(
  companyId: number,
  range: { from?: string | undefined; to?: string | undefined },
  clientId: number | undefined,
): QueryCommandInput {
  const values: Item = {
    ':pk': openInvoiceKeys.partition(companyId),
    ':from': range.from === undefined ? '0' : openInvoiceKeys.rangeStart(range.from),
    ':to': range.to === undefined ? '~' : openInvoiceKeys.rangeEnd(range.to),
  };
  if (clientId !== undefined) values[':client'] = clientId;
  return {
    TableName: tableName(),
    ConsistentRead: true,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ...(clientId === undefined ? {} : { FilterExpression: 'client_id = :client' }),
    ExpressionAttributeValues: values,
  };
}
