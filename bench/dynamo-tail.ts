/** What DynamoDB Local does unevenly taken out of three budgets (docs/performance.md "Budgets"); unit-tested. */
import { ratio } from './stats.ts';

/**
 * The pooled p99, endpoint ÷ floor, with DynamoDB Local's own tail taken out (docs/performance.md "Budgets", the
 * p99 rows): both sides make the same DynamoDB calls, yet the p99 is a few requests (the fifth slowest of 400 a side,
 * at c=1 the sides taking turns every ten requests, at c=8 in alternating blocks), and which side a slow moment of
 * DynamoDB Local lands on is chance. The difference of the two sides'
 * pooled p99s of DynamoDB time per request is that chance; it is taken out of the endpoint's p99 in either
 * direction (a floor that drew the slow moments makes the ratio stricter).
 */
export function p99BeyondDynamoDbTail(f: {
  endpointMs: number;
  floorMs: number;
  endpointDynamoMs: number;
  floorDynamoMs: number;
}): number {
  const dynamoTailGap = f.endpointDynamoMs - f.floorDynamoMs;
  if (!Number.isFinite(dynamoTailGap)) return ratio(f.endpointMs, f.floorMs);
  return ratio(f.endpointMs - dynamoTailGap, f.floorMs);
}

/**
 * Throughput at c=8 across 8 accounts ÷ one account, with the difference of the two sides' DynamoDB time per request
 * taken out (docs/performance.md "Many tenants"): both sides make the same calls, but DynamoDB Local spends more CPU
 * on writes spread over 8 accounts' key ranges than over one's. At a fixed concurrency, throughput is the
 * concurrency over the mean latency, so the ratio is the one account's mean latency over the 8 accounts' mean
 * latency with that difference taken out, in either direction.
 */
export function tenantRatioBeyondDynamoDb(f: {
  oneAccountMeanMs: number;
  manyAccountsMeanMs: number;
  oneAccountDynamoMs: number;
  manyAccountsDynamoMs: number;
}): number {
  const dynamoGap = f.manyAccountsDynamoMs - f.oneAccountDynamoMs;
  if (!Number.isFinite(dynamoGap)) return ratio(f.oneAccountMeanMs, f.manyAccountsMeanMs);
  return ratio(f.oneAccountMeanMs, f.manyAccountsMeanMs - dynamoGap);
}
