/**
 * Warm-up: the JIT of Node (runtime and load generator) and of DynamoDB Local. The CDK synth of the cold-start bundles
 * may still be running (it started with the set-up): it only slows the warm-up, which times nothing, and is waited
 * for at the end, for nothing may compete for the CPU once the phases measure.
 */
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { httpOp } from '../load.ts';
import { timed } from '../progress.ts';

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase('Warm-up (JIT of Node and of DynamoDB Local)');
  for (const ep of ctx.endpoints) {
    await ep.before?.(SIZES.warmup);
    await drive(SIZES.warmup, 4, httpOp(ctx.small.port, ep.make, ep.expected, {}));
  }
  await timed('CDK synth waited for', () => ctx.bundleBuild.done.catch(() => undefined));
}
