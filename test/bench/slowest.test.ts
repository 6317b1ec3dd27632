/** The BENCH_TAIL diagnostic's pure part: the slowest requests split into DynamoDB time and the rest. */
import { describe, expect, it } from 'vitest';
import { formatSlowest, slowestRequests } from '../../bench/compare.ts';

describe('slowestRequests', () => {
  it('pairs each latency with the DynamoDB time at its index and keeps the slowest first', () => {
    // Prepare
    const latencies = [5, 12, 4, 9];
    const dynamoMs = [4, 3, 3.5, 8];

    // Act
    const slowest = slowestRequests(latencies, dynamoMs, 2);

    // Assess
    expect(slowest).toEqual([
      { ms: 12, dynamoMs: 3, outsideMs: 9 },
      { ms: 9, dynamoMs: 8, outsideMs: 1 },
    ]);
  });

  it('gives none when the two lists cannot be paired', () => {
    // Prepare
    const latencies = [5, 12, 4];
    const dynamoMs = [4, 3];

    // Act
    const slowest = slowestRequests(latencies, dynamoMs, 2);

    // Assess
    expect(slowest).toEqual([]);
  });
});

describe('formatSlowest', () => {
  it('writes total [DynamoDB | outside] per request', () => {
    // Prepare
    const slowest = [{ ms: 12, dynamoMs: 3, outsideMs: 9 }];

    // Act
    const line = formatSlowest('endpoint', slowest);

    // Assess
    expect(line).toBe('endpoint: 12.0 [3.0 | 9.0]');
  });

  it('says so when nothing could be paired', () => {
    // Prepare
    const slowest: never[] = [];

    // Act
    const line = formatSlowest('floor', slowest);

    // Assess
    expect(line).toBe('floor: latencies and DynamoDB times do not pair (different counts)');
  });
});
