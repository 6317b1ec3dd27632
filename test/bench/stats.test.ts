/** The benchmark's pure helpers (no timing assertions: the bench itself is `npm run bench`). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetLine, evaluateBudget } from '../../bench/budgets.ts';
import { CONCURRENCY, SIZES } from '../../bench/config.ts';
import { p99BeyondDynamoDbTail, tenantRatioBeyondDynamoDb } from '../../bench/dynamo-tail.ts';
import { freshenInput, isWriteRequest, preStateItems } from '../../bench/replay.ts';
import { REVERSAL_INVOICES, reversalPicker, reversalsPerInvoice } from '../../bench/reversal-pool.ts';
import {
  consistentQueryRcu,
  dynamoItemBytes,
  historyRoundTripBudget,
  median,
  percentile,
  ratio,
  summarize,
  throughput,
} from '../../bench/stats.ts';

describe('bench statistics', () => {
  it('takes nearest-rank percentiles of unsorted samples', () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(samples, 50)).toBe(5);
    expect(percentile(samples, 90)).toBe(9);
    expect(percentile(samples, 99)).toBe(10);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
    expect(samples).toEqual([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]);
  });

  it('interpolates the median of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('summarises and computes ratios and throughput', () => {
    expect(summarize([1, 2, 3, 4])).toMatchObject({ n: 4, p50: 2, p99: 4, mean: 2.5, min: 1, max: 4 });
    expect(ratio(23, 20)).toBe(1.15);
    expect(ratio(1, 0)).toBeNaN();
    expect(throughput(240, 2000)).toBe(120);
  });

  it('evaluates budgets, treating a missing figure as missed', () => {
    expect(evaluateBudget({ name: 'a', value: 1.15, comparator: '<=', limit: 1.15 }).met).toBe(true);
    expect(evaluateBudget({ name: 'b', value: 0.79, comparator: '>=', limit: 0.8 }).met).toBe(false);
    expect(evaluateBudget({ name: 'c', value: Number.NaN, comparator: '<=', limit: 2 }).met).toBe(false);
    expect(evaluateBudget({ name: 'd', value: 0, comparator: '==', limit: 0 }).met).toBe(true);
    const line = budgetLine([
      evaluateBudget({ name: 'x', value: 2, comparator: '<=', limit: 2 }),
      evaluateBudget({ name: 'y', value: 12, comparator: '<=', limit: 8 }),
    ]);
    expect(line.startsWith('1 budgets met, 1 missed')).toBe(true);
    expect(line).toContain('y 12 <= 8 ✗');
  });

  it('sizes an item as DynamoDB does, and a consistent Query as its summed sizes per 4 KB', () => {
    expect(dynamoItemBytes({ PK: 'ab', n: 123 })).toBe(2 + 2 + 1 + 3);
    expect(dynamoItemBytes({ n: 100_000, b: true })).toBe(1 + 2 + 1 + 1);
    expect(consistentQueryRcu(2928, 130)).toBe(93);
    expect(consistentQueryRcu(1, 10)).toBe(1);
  });

  it('allows the payments query, the day-totals query and one BatchGetItem per 100 keys for a history page', () => {
    expect(historyRoundTripBudget(0)).toBe(2);
    expect(historyRoundTripBudget(100)).toBe(3);
    expect(historyRoundTripBudget(200)).toBe(4);
    expect(historyRoundTripBudget(201)).toBe(5);
  });
});

describe('bench replay of captured requests', () => {
  const calls = [
    {
      command: 'BatchGetItemCommand',
      input: {
        RequestItems: {
          t: {
            Keys: [
              { PK: 'INVOICE#A', SK: 'HEADER' },
              { PK: 'ACCOUNT#1', SK: 'SEQ#payment' },
            ],
            ConsistentRead: true,
          },
        },
      },
      elapsedMs: 1,
      consumedCapacity: [],
      items: [
        { PK: 'INVOICE#A', SK: 'HEADER', version: 3 },
        { PK: 'ACCOUNT#1', SK: 'SEQ#payment', value: 7 },
      ],
    },
    {
      command: 'TransactWriteItemsCommand',
      input: {
        TransactItems: [
          { Update: { TableName: 't', Key: { PK: 'INVOICE#A', SK: 'HEADER' }, ConditionExpression: 'version = :v' } },
          {
            Put: {
              TableName: 't',
              Item: { PK: 'PAYMENT#1#8', SK: 'PAYMENT', GSI1PK: 'PAYMENTS#1', GSI1SK: '2026-01-02#01J' },
            },
          },
          { ConditionCheck: { TableName: 't', Key: { PK: 'CLIENT#1#2', SK: 'CLIENT' } } },
        ],
      },
      elapsedMs: 2,
      consumedCapacity: [],
    },
  ];

  it('renames every primary-key PK consistently, makes each written index key unique, and leaves the capture untouched', () => {
    const read = freshenInput(calls[0]!.command, calls[0]!.input, 'r1');
    expect(read.RequestItems.t.Keys).toEqual([
      { PK: 'INVOICE#A~r1', SK: 'HEADER' },
      { PK: 'ACCOUNT#1~r1', SK: 'SEQ#payment' },
    ]);
    const write = freshenInput(calls[1]!.command, calls[1]!.input, 'r1');
    expect(write.TransactItems[0].Update.Key.PK).toBe('INVOICE#A~r1');
    expect(write.TransactItems[1].Put.Item).toEqual({
      PK: 'PAYMENT#1#8~r1',
      SK: 'PAYMENT',
      GSI1PK: 'PAYMENTS#1',
      GSI1SK: '2026-01-02#01J~r1',
    });
    expect(write.TransactItems[2].ConditionCheck.Key.PK).toBe('CLIENT#1#2~r1');
    expect((calls[1]!.input as any).TransactItems[0].Update.Key.PK).toBe('INVOICE#A');
  });

  it('seeds what the original request read, under the renamed keys', () => {
    expect(preStateItems(calls, 'r2')).toEqual([
      { table: 't', item: { PK: 'INVOICE#A~r2', SK: 'HEADER', version: 3 } },
      { table: 't', item: { PK: 'ACCOUNT#1~r2', SK: 'SEQ#payment', value: 7 } },
    ]);
    expect(isWriteRequest(calls)).toBe(true);
    expect(isWriteRequest([calls[0]!])).toBe(false);
  });

  it('seeds an item read twice once, as last read (a reversal reads its payment by GetItem, then in its batch)', () => {
    const payment = { PK: 'PAYMENT#1#8', SK: 'PAYMENT', GSI1SK: '2026-01-02#01J', amount: 100 };
    const reads = [
      {
        command: 'GetItemCommand',
        input: { TableName: 't', Key: { PK: 'PAYMENT#1#8', SK: 'PAYMENT' }, ConsistentRead: true },
        elapsedMs: 1,
        consumedCapacity: [],
        items: [payment],
      },
      {
        command: 'BatchGetItemCommand',
        input: {
          RequestItems: {
            t: {
              Keys: [
                { PK: 'PAYMENT#1#8', SK: 'PAYMENT' },
                { PK: 'INVOICE#A', SK: 'HEADER' },
              ],
            },
          },
        },
        elapsedMs: 1,
        consumedCapacity: [],
        items: [
          { ...payment, amount: 200 },
          { PK: 'INVOICE#A', SK: 'HEADER', version: 3 },
        ],
      },
    ];
    expect(preStateItems(reads, 'r3')).toEqual([
      { table: 't', item: { PK: 'PAYMENT#1#8~r3', SK: 'PAYMENT', GSI1SK: '2026-01-02#01J~r3', amount: 200 } },
      { table: 't', item: { PK: 'INVOICE#A~r3', SK: 'HEADER', version: 3 } },
    ]);
  });
});

describe('replaying a snapshot read (TransactGetItems)', () => {
  it('renames its keys, and its items are the pre-state of the replay (the later read of an item wins)', () => {
    const payment = { PK: 'PAYMENT#1#8', SK: 'PAYMENT', amount: 100 };
    const snapshot = {
      command: 'TransactGetItemsCommand',
      input: {
        TransactItems: [
          { Get: { TableName: 't', Key: { PK: 'PAYMENT#1#8', SK: 'PAYMENT' } } },
          { Get: { TableName: 't', Key: { PK: 'INVOICE#A', SK: 'HEADER' } } },
        ],
      },
      elapsedMs: 1,
      consumedCapacity: [],
      items: [
        { ...payment, amount: 200 },
        { PK: 'INVOICE#A', SK: 'HEADER', version: 3 },
      ],
    };
    const get = {
      command: 'GetItemCommand',
      input: { TableName: 't', Key: {} },
      elapsedMs: 1,
      consumedCapacity: [],
      items: [payment],
    };
    expect(freshenInput(snapshot.command, snapshot.input, 'r4').TransactItems).toEqual([
      { Get: { TableName: 't', Key: { PK: 'PAYMENT#1#8~r4', SK: 'PAYMENT' } } },
      { Get: { TableName: 't', Key: { PK: 'INVOICE#A~r4', SK: 'HEADER' } } },
    ]);
    expect(preStateItems([get, snapshot], 'r4')).toEqual([
      { table: 't', item: { PK: 'PAYMENT#1#8~r4', SK: 'PAYMENT', amount: 200 } },
      { table: 't', item: { PK: 'INVOICE#A~r4', SK: 'HEADER', version: 3 } },
    ]);
  });
});

describe('reverse-payment pool', () => {
  const pool = (perInvoice = 5, invoices = 8) =>
    Array.from({ length: invoices }, (_, k) => Array.from({ length: perInvoice }, (_, n) => 1000 * k + perInvoice - n));

  it('never hands out a payment twice, and takes each invoice newest first', () => {
    const take = reversalPicker(pool());
    const seen = Array.from({ length: 40 }, (_, i) => take(i, 0));
    expect(new Set(seen).size).toBe(40);
    const ofInvoice = seen.filter((id) => Math.floor(id / 1000) === 3);
    expect(ofInvoice).toEqual([3005, 3004, 3003, 3002, 3001]);
    expect(() => take(40, 0)).toThrow(/exhausted/);
  });

  it('gives concurrent workers different invoices, whatever order they come back in', () => {
    // With margin: at c=8 the one free invoice may be one that ran out while the others still have payments.
    const take = reversalPicker(pool(10));
    const inFlight = new Map<number, number>();
    let i = 0;
    for (let w = 0; w < 8; w++) inFlight.set(w, Math.floor(take(i++, w) / 1000));
    // Workers finish in an uneven order; each takes its next payment as soon as it is free.
    for (const w of [3, 3, 0, 7, 3, 5, 1, 1, 6, 2, 4, 0, 3, 7, 7, 5, 2, 6, 4, 1, 0, 3, 3, 5, 2, 6, 4, 1, 0, 7]) {
      inFlight.delete(w);
      const invoice = Math.floor(take(i++, w) / 1000);
      expect([...inFlight.values()]).not.toContain(invoice);
      inFlight.set(w, invoice);
    }
  });

  it('serves a row of the full run, whatever order the workers come back in', () => {
    // The reverse payment row's runs of `drive`: its warm-up at c=4, captures, the c=1 blocks, the c=8 blocks.
    const runs: [count: number, concurrency: number][] = [
      [SIZES.warmup, 4],
      [SIZES.captures, 1],
      ...Array<[number, number]>(SIZES.blocks).fill([SIZES.perBlock1, 1]),
      ...Array<[number, number]>(SIZES.blocks).fill([SIZES.perBlock8, CONCURRENCY]),
    ];
    const needed = runs.reduce((n, [count]) => n + count, 0);
    const perInvoice = reversalsPerInvoice(needed);
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: needed, maxLength: needed }), (comebacks) => {
        const take = reversalPicker(pool(perInvoice, REVERSAL_INVOICES));
        let drawn = 0;
        for (const [count, concurrency] of runs) {
          const inFlight = Array.from({ length: Math.min(concurrency, count) }, (_, w) => w);
          for (let i = 0; i < count; i++) {
            // The first request of each worker, then whichever worker the draw brings back.
            const worker = i < inFlight.length ? i : inFlight[comebacks[drawn++]! % inFlight.length]!;
            take(i, worker);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('spreads a single worker over every invoice', () => {
    const take = reversalPicker(pool());
    expect(new Set(Array.from({ length: 8 }, (_, i) => Math.floor(take(i, 0) / 1000))).size).toBe(8);
  });
});

describe("the p99 at c=1 beyond DynamoDB Local's tail", () => {
  it('takes out of the endpoint p99 what its DynamoDB p99 exceeds the floor’s by', () => {
    // Prepare: the endpoint's requests drew DynamoDB Local's slow moments (its DynamoDB p99 11.8 ms longer)
    const measured = { endpointMs: 40.48, floorMs: 28.19, endpointDynamoMs: 36.88, floorDynamoMs: 25.08 };
    // Act
    const corrected = p99BeyondDynamoDbTail(measured);
    // Assess
    expect(ratio(measured.endpointMs, measured.floorMs)).toBeCloseTo(1.436, 3);
    expect(corrected).toBeCloseTo((40.48 - 11.8) / 28.19, 3);
  });

  it('is stricter when the floor drew the slow moments', () => {
    const corrected = p99BeyondDynamoDbTail({ endpointMs: 30, floorMs: 30, endpointDynamoMs: 20, floorDynamoMs: 26 });
    expect(corrected).toBeCloseTo(36 / 30, 3);
  });

  it('is the plain ratio when a side has no DynamoDB times', () => {
    const corrected = p99BeyondDynamoDbTail({
      endpointMs: 9,
      floorMs: 6,
      endpointDynamoMs: Number.NaN,
      floorDynamoMs: 3,
    });
    expect(corrected).toBe(1.5);
  });
});

describe("many tenants beyond DynamoDB Local's difference", () => {
  it('takes out of the 8 accounts’ mean latency what their DynamoDB time exceeds the one account’s by', () => {
    // Prepare: the quick run of 2026-11-27 06:49 (means in ms at c=8; DynamoDB 98.96 against 92.37 ms per request)
    const measured = {
      oneAccountMeanMs: 107.8,
      manyAccountsMeanMs: 112.4,
      oneAccountDynamoMs: 92.37,
      manyAccountsDynamoMs: 98.96,
    };
    // Act
    const corrected = tenantRatioBeyondDynamoDb(measured);
    // Assess
    expect(ratio(measured.oneAccountMeanMs, measured.manyAccountsMeanMs)).toBeCloseTo(0.959, 3);
    expect(corrected).toBeCloseTo(107.8 / (112.4 - 6.59), 3);
  });

  it('is stricter when the one account drew the slower DynamoDB', () => {
    const corrected = tenantRatioBeyondDynamoDb({
      oneAccountMeanMs: 100,
      manyAccountsMeanMs: 100,
      oneAccountDynamoMs: 90,
      manyAccountsDynamoMs: 80,
    });
    expect(corrected).toBeCloseTo(100 / 110, 3);
  });

  it('still sees our own time growing with the accounts', () => {
    // Prepare: the same DynamoDB time on both sides, 10 ms more of ours per request across 8 accounts
    const measured = {
      oneAccountMeanMs: 100,
      manyAccountsMeanMs: 110,
      oneAccountDynamoMs: 80,
      manyAccountsDynamoMs: 80,
    };
    // Act / Assess
    expect(tenantRatioBeyondDynamoDb(measured)).toBeCloseTo(100 / 110, 3);
  });
});
