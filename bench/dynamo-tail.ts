/** The p99 at c=1 with DynamoDB Local's own tail taken out (docs/performance.md "Budgets"); unit-tested. */
import { ratio } from './stats.ts';

/**
 * The pooled p99 at c=1, endpoint ÷ floor, with DynamoDB Local's own tail taken out (docs/performance.md "p99 at
 * c=1"): both sides make the same DynamoDB calls, taking turns every ten requests, yet with 400 samples a side the
 * p99 is the fourth slowest request, and which side a slow moment of DynamoDB Local lands on is chance. The
 * difference of the two sides' pooled p99s of DynamoDB time per request is that chance; it is taken out of the
 * endpoint's p99 in either direction (a floor that drew the slow moments makes the ratio stricter).
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
