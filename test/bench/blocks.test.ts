/** The bench's block statistics, CPU accounting and replay ordering (pure helpers; no timing assertions). */
import { describe, expect, it } from 'vitest';
import { evaluateBudget, formatBudget } from '../../bench/budgets.ts';
import { parseMachineStat, parseProcessStat } from '../../bench/cpu.ts';
import { replayWaves } from '../../bench/replay.ts';
import {
  type BlockCpu,
  blockCpu,
  type CpuSnapshot,
  explainFasterThanFloor,
  explainLatencyBelowFloor,
  formatSpread,
  pairFigures,
  perByteRatio,
  sideFigures,
  spreadOf,
} from '../../bench/stats.ts';

const snapshot = (overrides: Partial<CpuSnapshot>): CpuSnapshot => ({
  wallMs: 0,
  loadGeneratorUs: 0,
  serverUs: 0,
  floorUs: 0,
  dynamoDbLocalTicks: 0,
  machineBusyTicks: 0,
  machineTotalTicks: 0,
  serverDynamo: { calls: 0, ms: 0 },
  floorDynamo: { calls: 0, ms: 0 },
  ...overrides,
});

describe('interleaved blocks', () => {
  it('judges on the median of the blocks and keeps their range', () => {
    const spread = spreadOf([1.2, 0.9, 1.05]);
    expect(spread).toEqual({ median: 1.05, min: 0.9, max: 1.2, values: [1.2, 0.9, 1.05] });
    expect(formatSpread(spread)).toBe('1.05 (0.9–1.2)');
    expect(spreadOf([1, 2, 3, 4]).median).toBe(2.5);
  });

  it('lets no failed block hide: one NaN block makes the median NaN, which misses its budget', () => {
    const spread = spreadOf([1, Number.NaN, 1]);
    expect(spread.median).toBeNaN();
    expect(evaluateBudget({ name: 'x', value: spread.median, spread, comparator: '<=', limit: 2 }).met).toBe(false);
  });

  it('prints a budget judged on a median with the range of its blocks', () => {
    const result = evaluateBudget({
      name: 'overhead',
      value: 1.05,
      spread: spreadOf([1.05, 0.98, 1.2]),
      comparator: '<=',
      limit: 1.15,
    });
    expect(result.met).toBe(true);
    expect(formatBudget(result)).toBe('met: overhead = 1.05 [0.98–1.2 over 3 blocks] (budget <= 1.15)');
  });
});

describe('CPU accounting of a block', () => {
  it('reads utime + stime from /proc/<pid>/stat even when the command name has spaces and parentheses', () => {
    const line = '4242 (java (DynamoDB) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 350 25 7 3 20 0 40 0 123 0 0';
    expect(parseProcessStat(line)).toBe(375);
  });

  it('reads busy and total ticks of the machine, iowait counting as idle', () => {
    const text = 'cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\n';
    expect(parseMachineStat(text)).toEqual({ busy: 160, total: 1000 });
    expect(parseMachineStat('intr 1 2 3').busy).toBeNaN();
  });

  it('attributes what no bench process used to other processes on the machine', () => {
    const before = snapshot({});
    const after = snapshot({
      wallMs: 1000,
      loadGeneratorUs: 100_000,
      serverUs: 300_000,
      floorUs: 0,
      dynamoDbLocalTicks: 20, // 200 ms at 100 ticks per second
      machineBusyTicks: 100, // 1000 ms busy of 2000 ms (2 CPUs × 1 s)
      machineTotalTicks: 200,
      serverDynamo: { calls: 200, ms: 600 },
      serverGcMs: 45,
    });
    const cpu = blockCpu({ ...before, serverGcMs: 5 }, after, 100);
    expect(cpu).toMatchObject({
      wallMs: 1000,
      serverMs: 300,
      floorMs: 0,
      dynamoDbLocalMs: 200,
      loadGeneratorMs: 100,
      serverDynamoMs: 600,
      serverGcMs: 40,
      floorGcMs: 0,
    });
    expect(cpu.foreignShare).toBeCloseTo(0.2); // (1000 − 300 − 100 − 200) ÷ 2000
  });
});

describe('endpoint against its floor', () => {
  const cpu = (overrides: Partial<BlockCpu>): BlockCpu => ({
    wallMs: 1000,
    serverMs: 0,
    floorMs: 0,
    dynamoDbLocalMs: 0,
    loadGeneratorMs: 0,
    foreignShare: 0,
    serverDynamoMs: 0,
    floorDynamoMs: 0,
    serverGcMs: 0,
    floorGcMs: 0,
    ...overrides,
  });

  it('computes per-request figures and the ratios of one block pair', () => {
    // Endpoint: 4 requests, 12 ms each on average, 8 ms of it DynamoDB; runtime CPU 16 ms → 4 ms per request.
    const endpoint = sideFigures(
      'endpoint',
      [10, 12, 12, 14],
      48,
      0,
      cpu({ serverMs: 16, serverDynamoMs: 32, floorMs: 99, serverGcMs: 6, floorGcMs: 99 }),
    );
    // Floor: 4 replays of 10 ms, 9 ms of it DynamoDB (1 ms of transport); floor process CPU 10 ms → 2.5 ms per replay.
    const floor = sideFigures('floor', [10, 10, 10, 10], 40, 0, cpu({ floorMs: 10, floorDynamoMs: 36, serverMs: 99 }));
    expect(endpoint).toMatchObject({ n: 4, p50: 12, p99: 14, meanMs: 12, processCpuMs: 4, dynamoMs: 8, gcMs: 1.5 });
    expect(floor).toMatchObject({ p50: 10, processCpuMs: 2.5, dynamoMs: 9 });
    expect(endpoint.throughputPerSecond).toBeCloseTo(83.33, 1);
    const pair = pairFigures(endpoint, floor);
    expect(pair).toMatchObject({
      p50Ratio: 1.2,
      p99Ratio: 1.4,
      throughputRatio: 0.833,
      ourCpuMs: 1.5,
      // Outside DynamoDB: endpoint 12 − 8 = 4 ms, floor 10 − 9 = 1 ms.
      ourTimeMs: 3,
      floorSlowerByMs: 1,
    });
    // The means differ by exactly our time minus how much slower DynamoDB answered the floor.
    expect(endpoint.meanMs - floor.meanMs).toBeCloseTo(pair.ourTimeMs - pair.floorSlowerByMs, 9);
  });

  it('explains an endpoint faster than its floor only when DynamoDB answered the floor slower by more than our time', () => {
    expect(explainFasterThanFloor({ ourTimeMs: 1.2, floorSlowerByMs: 2.0 })).toBe('explained');
    expect(explainFasterThanFloor({ ourTimeMs: 1.2, floorSlowerByMs: 0.5 })).toBe('unexplained');
    expect(explainFasterThanFloor({ ourTimeMs: 1.2, floorSlowerByMs: -3 })).toBe('unexplained');
    expect(explainFasterThanFloor({ ourTimeMs: 1.2, floorSlowerByMs: Number.NaN })).toBe('unexplained');
  });

  it('explains a percentile under the floor only when DynamoDB, at that percentile, answered the floor slower by the gap', () => {
    // The endpoint's p50 is 0.3 ms shorter; DynamoDB's p50 was 0.5 ms longer for the floor: our time stayed positive.
    expect(explainLatencyBelowFloor({ endpointMs: 7.1, floorMs: 7.4, endpointDynamoMs: 6.0, floorDynamoMs: 6.5 })).toBe(
      'explained',
    );
    // DynamoDB was as fast for both: the endpoint's time outside DynamoDB would be shorter than the floor's.
    expect(explainLatencyBelowFloor({ endpointMs: 7.1, floorMs: 7.4, endpointDynamoMs: 6.0, floorDynamoMs: 6.0 })).toBe(
      'unexplained',
    );
    expect(explainLatencyBelowFloor({ endpointMs: 7.1, floorMs: 7.4, endpointDynamoMs: 6.0, floorDynamoMs: 6.2 })).toBe(
      'unexplained',
    );
    expect(
      explainLatencyBelowFloor({ endpointMs: 7.1, floorMs: 7.4, endpointDynamoMs: Number.NaN, floorDynamoMs: 6.5 }),
    ).toBe('unexplained');
  });

  it('takes the p50 and p99 of the DynamoDB time per request of a block', () => {
    const times = Array.from({ length: 100 }, (_, i) => i + 1);
    const side = sideFigures('floor', [1, 2, 3], 10, 0, cpu({}), times);
    expect(side.dynamoP50Ms).toBe(50);
    expect(side.dynamoP99Ms).toBe(99);
    expect(Number.isNaN(sideFigures('floor', [1], 10, 0, cpu({})).dynamoP50Ms)).toBe(true);
  });

  it('compares cost per byte of a large page with a smaller page', () => {
    // Linear plus a fixed part: 2 ms + 8 ms/MB.
    expect(perByteRatio({ cost: 2 + 8 * 5, bytes: 5e6 }, { cost: 2 + 8 * 1, bytes: 1e6 })).toBeLessThan(1);
    // Quadratic in bytes: 1 ms/MB².
    expect(perByteRatio({ cost: 25, bytes: 5e6 }, { cost: 1, bytes: 1e6 })).toBe(5);
    expect(perByteRatio({ cost: 1, bytes: 0 }, { cost: 1, bytes: 1 })).toBeNaN();
  });
});

describe('replaying a request with its own concurrency', () => {
  it('sends together the calls the request sent before any of them was answered', () => {
    // Captured in answer order: Query, then the two BatchGetItem calls sent together.
    const calls = [
      { startMs: 100, endMs: 105 }, // Query
      { startMs: 106, endMs: 120 }, // BatchGetItem, answered second
      { startMs: 106.2, endMs: 115 }, // BatchGetItem, answered first
    ];
    expect(replayWaves(calls)).toEqual([[0], [1, 2]]);
  });

  it('keeps dependent calls one after another, in the order they were sent', () => {
    expect(
      replayWaves([
        { startMs: 20, endMs: 30 },
        { startMs: 0, endMs: 10 },
      ]),
    ).toEqual([[1], [0]]);
    expect(
      replayWaves([
        { startMs: 0, endMs: 10 },
        { startMs: 10, endMs: 12 },
      ]),
    ).toEqual([[0], [1]]);
  });

  it('sends calls without timing one after another', () => {
    expect(replayWaves([{}, {}, {}])).toEqual([[0], [1], [2]]);
  });
});

describe('replaying a transaction with an explicit ClientRequestToken', () => {
  it('gives each replay its own token, the same for the same replay', async () => {
    const { freshenInput } = await import('../../bench/replay.ts');
    const input = {
      ClientRequestToken: '0f8e3a52-5c1e-4f7b-9a55-3b7a2c1d9e10',
      TransactItems: [{ Put: { TableName: 't', Item: { PK: 'P#1', SK: 'X' } } }],
    };
    const a = freshenInput('TransactWriteItemsCommand', input, 'r1');
    const b = freshenInput('TransactWriteItemsCommand', input, 'r2');
    expect(a.ClientRequestToken).not.toBe(input.ClientRequestToken);
    expect(a.ClientRequestToken).not.toBe(b.ClientRequestToken);
    expect(a.ClientRequestToken).toBe(freshenInput('TransactWriteItemsCommand', input, 'r1').ClientRequestToken);
    expect(a.ClientRequestToken.length).toBeLessThanOrEqual(36);
    expect(freshenInput('TransactWriteItemsCommand', { TransactItems: [] }, 'r1').ClientRequestToken).toBeUndefined();
  });
});

describe('replaying a write that takes a gapless number', () => {
  const call = (command: string, input: Record<string, unknown> = {}) => ({
    command,
    input,
    elapsedMs: 1,
    consumedCapacity: undefined,
  });
  const transaction = (counterSk: string) =>
    call('TransactWriteItemsCommand', {
      TransactItems: [
        { Put: { TableName: 't', Item: { PK: 'ACCOUNT#7', SK: 'INVOICE#1' } } },
        { Update: { TableName: 't', Key: { PK: 'ACCOUNT#7', SK: counterSk } } },
      ],
    });

  it('takes its turn per account from its first wave through the transaction that advances the counter', async () => {
    const { numberTurn } = await import('../../bench/replay.ts');
    const calls = [call('BatchGetItemCommand'), transaction('NUMBER#invoice'), call('GetItemCommand')];
    expect(numberTurn(calls, [[0], [1], [2]])).toEqual({ key: 'ACCOUNT#7|NUMBER#invoice', throughWave: 1 });
    expect(
      numberTurn(
        [call('BatchGetItemCommand'), call('BatchGetItemCommand'), transaction('NUMBER#credit_note')],
        [[0], [1], [2]],
      ),
    ).toEqual({
      key: 'ACCOUNT#7|NUMBER#credit_note',
      throughWave: 2,
    });
  });

  it('takes no turn when no counter is advanced', async () => {
    const { numberTurn } = await import('../../bench/replay.ts');
    expect(numberTurn([call('BatchGetItemCommand'), transaction('SEQ#invoice')], [[0], [1]])).toBeUndefined();
    expect(numberTurn([call('QueryCommand')], [[0]])).toBeUndefined();
  });
});
