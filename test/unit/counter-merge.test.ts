/**
 * `mergeCounterUpdates` (shared/store/counter-merge.ts): several payments in one transaction add to the same aging
 * rows and day totals, and a transaction may not touch an item twice, so their counter updates become one per item.
 */
import { describe, expect, it } from 'vitest';
import { mergeCounterUpdates } from '../../shared/store/counter-merge.ts';
import { agingRowActions } from '../../shared/store/receivables.ts';
import type { TransactItem } from '../../shared/store/write-executor.ts';

const change = (referenceCode: string, dueDate: string, outstandingDeltaKobo: number, openCountDelta: number) => ({
  companyId: 7,
  clientId: 3,
  referenceCode,
  dueDate,
  outstandingDeltaKobo,
  openCountDelta,
  openInvoice: 'keep' as const,
});

const keyOf = (action: TransactItem) => JSON.stringify(action.Update?.Key ?? action.Put?.Item);

describe('merging counter updates of one transaction', () => {
  it('two payments on invoices due the same day: one update per aging row, the amounts summed', () => {
    const actions = [
      ...agingRowActions('table', change('A', '2030-12-01', -10_000, -1), 0),
      ...agingRowActions('table', change('B', '2030-12-01', -2_500, 0), 0),
      ...agingRowActions('table', change('C', '2030-12-02', -700, -1), 0),
    ];
    const merged = mergeCounterUpdates(actions);
    expect(merged).toHaveLength(4);
    expect(new Set(merged.map(keyOf)).size).toBe(4);
    expect(merged[0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':outstanding': -12_500, ':open': -1 });
    // The client's row counts its writes: two changes.
    expect(merged[1]!.Update!.ExpressionAttributeValues).toMatchObject({ ':outstanding': -12_500, ':one': 2 });
    expect(merged[2]).toEqual(actions[4]);
  });

  it('leaves conditional updates, puts and updates of different shapes as they are', () => {
    const key = { PK: 'X', SK: 'Y' };
    const counter = (value: number, condition?: string): TransactItem => ({
      Update: {
        TableName: 'table',
        Key: key,
        UpdateExpression: 'ADD #n :n',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':n': value },
        ...(condition ? { ConditionExpression: condition } : {}),
      },
    });
    const conditional = [counter(1, 'attribute_exists(PK)'), counter(2)];
    expect(mergeCounterUpdates(conditional)).toEqual(conditional);
    const puts: TransactItem[] = [
      { Put: { TableName: 'table', Item: key } },
      { Put: { TableName: 'table', Item: key } },
    ];
    expect(mergeCounterUpdates(puts)).toEqual(puts);
    expect(mergeCounterUpdates([counter(1), counter(2), counter(3)])).toEqual([counter(6)]);
  });
});
