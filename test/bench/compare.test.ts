/** The verdicts the bench prints beside an endpoint that measured faster than its floor (no timing assertions). */
import { describe, expect, it } from 'vitest';
import { type Comparison, explanation } from '../../bench/compare.ts';
import { spreadOf } from '../../bench/stats.ts';

type Side = Comparison['endpoint'];

const side = (overrides: Partial<Side>): Side => ({
  n: 100,
  p50: 5,
  p90: 6,
  p99: 8,
  mean: 5.2,
  min: 4,
  max: 9,
  throughputPerSecond: 190,
  errors: 0,
  p50Ms: 5,
  p99Ms: 8,
  processCpuMs: 1.5,
  dynamoMs: 3,
  dynamoP50Ms: 3,
  dynamoP99Ms: 5,
  dynamoDbLocalCpuMs: 2,
  loadGeneratorCpuMs: 0.5,
  foreignShare: 0.02,
  gcMs: 0.3,
  ...overrides,
});

const comparison = (overrides: Partial<Comparison>): Comparison => ({
  concurrency: 1,
  blocks: [],
  p50Ratio: spreadOf([1.1]),
  p99Ratio: spreadOf([1.1]),
  p99Pooled: {
    ratio: 1.1,
    endpointMs: 8.8,
    floorMs: 8,
    endpointDynamoMs: 5,
    floorDynamoMs: 5,
    beyondDynamoDbTail: 1.1,
  },
  throughputRatio: spreadOf([0.9]),
  ourCpuMs: spreadOf([0.8], 2),
  ourTimeMs: spreadOf([0.5], 2),
  floorSlowerByMs: spreadOf([0.1], 2),
  endpoint: side({}),
  floor: side({ p50Ms: 4.5, mean: 4.7 }),
  ...overrides,
});

describe('bench explanation of a comparison', () => {
  it('states the measurements and gives no verdict when the endpoint does not beat its floor', () => {
    const { line, verdicts } = explanation(comparison({}));
    expect(line).toContain('our time 0.5 ms/request');
    expect(line).toContain('DynamoDB slower for the floor by 0.1 ms');
    expect(line).toContain('other processes 2 % vs 2 % of the machine');
    expect(verdicts).toEqual([]);
  });

  it('explains a p50 under the floor at c=1 when DynamoDB answered the floor more slowly by at least the gap', () => {
    const c = comparison({
      p50Ratio: spreadOf([0.95]),
      endpoint: side({ p50Ms: 5, dynamoP50Ms: 3 }),
      floor: side({ p50Ms: 5.3, dynamoP50Ms: 3.4 }),
    });
    expect(explanation(c).verdicts).toEqual([
      "p50 under the floor's: explained (DynamoDB p50 slower for the floor by 0.4 ms, endpoint p50 shorter by 0.3 ms, medians of the blocks)",
    ]);
  });

  it('calls a p99 under the floor unexplained when DynamoDB does not account for the gap', () => {
    const c = comparison({
      concurrency: 8,
      p99Ratio: spreadOf([0.9]),
      endpoint: side({ p99Ms: 8, dynamoP99Ms: 5 }),
      floor: side({ p99Ms: 9, dynamoP99Ms: 5.2 }),
    });
    expect(explanation(c).verdicts).toEqual([
      "p99 under the floor's: UNEXPLAINED (DynamoDB p99 slower for the floor by 0.2 ms, endpoint p99 shorter by 1 ms, medians of the blocks)",
    ]);
  });

  it('judges a throughput over the floor at c=8 on the means, and not at c=1', () => {
    const faster = { throughputRatio: spreadOf([1.05]), ourTimeMs: spreadOf([0.3], 2) };
    const explained = comparison({ ...faster, concurrency: 8, floorSlowerByMs: spreadOf([0.4], 2) });
    expect(explanation(explained).verdicts).toEqual([
      "throughput over the floor's: explained (DynamoDB slower for the floor by 0.4 ms per request on average, our time 0.3 ms)",
    ]);
    const unexplained = comparison({ ...faster, concurrency: 8, floorSlowerByMs: spreadOf([0.2], 2) });
    expect(explanation(unexplained).verdicts[0]).toMatch(/^throughput over the floor's: UNEXPLAINED/);
    expect(explanation(comparison({ ...faster, concurrency: 1 })).verdicts).toEqual([]);
  });
});
