/**
 * Gapless document numbers (docs/tax.md "Numbers"; docs/data-design.md "Document numbers"): one counter item per
 * account and kind of document, holding the last number given. A write reads it with everything else it reads and
 * advances it by one in its own transaction, on condition that it still holds the value read. So a number is consumed
 * only by a document that commits, and concurrent creations — each re-reading and deciding again after its condition
 * failed (store/write-executor.ts) — take consecutive numbers. Unlike the id blocks (sequences.ts), nothing is reserved
 * ahead: no number is ever skipped, at the cost of one counter item every creation of the account's documents writes.
 */
import { itemOf } from './batch.ts';
import type { Item } from './items.ts';
import { type DocumentKind, type Key, keys } from './keys.ts';
import type { TransactItem } from './write-executor.ts';

export const documentCounterKey = (companyId: number, kind: DocumentKind): Key => keys.documentCounter(companyId, kind);

/** The last number given, as read (0 before the first document). */
export function lastNumberFrom(items: Map<string, Item>, companyId: number, kind: DocumentKind): number {
  return Number(itemOf(items, documentCounterKey(companyId, kind))?.value ?? 0);
}

/** Gives number `last + 1`: the counter moves on from `last`, on condition it still holds it. */
export function takeNumberAction(table: string, companyId: number, kind: DocumentKind, last: number): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: documentCounterKey(companyId, kind),
      UpdateExpression: 'SET #value = :next, entity = :entity, company_id = :company',
      ConditionExpression: last === 0 ? 'attribute_not_exists(PK)' : '#value = :last',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: {
        ':next': last + 1,
        ':entity': 'document_counter',
        ':company': companyId,
        ...(last === 0 ? {} : { ':last': last }),
      },
    },
  };
}
