/**
 * A client's ledger (docs/data-design.md "Receivables"): its statement lines, in the client's own partition, by date.
 * A statement reads the lines from its period's first day on, consistently, and never another client's items.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { LEDGER_LINE_TYPES, type LedgerLine, type LedgerLineType } from '../domain/receivables.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { ledgerKeys } from './keys.ts';

const typeOf = (value: unknown): LedgerLineType => {
  const type = LEDGER_LINE_TYPES.find((name) => name === value);
  if (!type) throw new Error(`a ledger line has an unknown type ${String(value)}`);
  return type;
};

export function ledgerLineFromItem(item: Item): LedgerLine {
  return {
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    date: String(item.date),
    recordedAt: String(item.recorded_at),
    type: typeOf(item.type),
    referenceCode: String(item.reference_code),
    description: String(item.description ?? ''),
    debitKobo: Number(item.debit ?? 0),
    creditKobo: Number(item.credit ?? 0),
    sourceId: Number(item.source_id),
    ...(typeof item.number === 'string' ? { number: item.number } : {}),
    ...(typeof item.subtotal === 'number'
      ? {
          split: {
            subtotalKobo: item.subtotal,
            discountKobo: Number(item.discount ?? 0),
            taxKobo: Number(item.tax ?? 0),
          },
        }
      : {}),
  };
}

/**
 * The client's lines dated `fromIsoDate` or later, in date order (then recording order). With `atMost`, the read stops
 * once more than `atMost.lines` lines dated up to `atMost.to` were read (a statement that long is refused anyway).
 */
export async function queryLedgerSince(
  companyId: number,
  clientId: number,
  fromIsoDate: string,
  atMost?: { lines: number; to: string },
): Promise<LedgerLine[]> {
  const lines: LedgerLine[] = [];
  let after: Record<string, unknown> | undefined;
  const tooMany = () => atMost !== undefined && (lines[atMost.lines]?.date ?? '~') <= atMost.to;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK >= :from',
        ExpressionAttributeValues: {
          ':pk': ledgerKeys.partition(companyId, clientId),
          ':from': ledgerKeys.from(fromIsoDate),
        },
        ConsistentRead: true,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    for (const item of result.Items ?? []) lines.push(ledgerLineFromItem(item));
    after = result.LastEvaluatedKey;
  } while (after && !tooMany());
  return lines;
}
