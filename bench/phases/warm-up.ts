/** Warm-up: the JIT of Node (runtime and load generator) and of DynamoDB Local, once the CDK synth is done. */
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { httpOp } from '../load.ts';

export async function run(ctx: BenchContext): Promise<void> {
  await ctx.bundleBuild.done.catch(() => undefined); // nothing may compete for the CPU from here on
  ctx.phase('Warm-up (JIT of Node and of DynamoDB Local)');
  for (const ep of ctx.endpoints) {
    await ep.before?.(SIZES.warmup);
    await drive(SIZES.warmup, 4, httpOp(ctx.small.port, ep.make, ep.expected, {}));
  }
}
