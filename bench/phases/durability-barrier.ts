/**
 * The local runtime's durability barrier. `npm start` holds each write's answer until DynamoDB Local made it
 * durable (docs/guarantees.md): one consistent GetItem after each transaction. The runtime's own process with the
 * barrier put on its DynamoDB client and with it taken off (bench/server-child.ts), in interleaved blocks: the same
 * process, warm, on either side, so the one difference is the barrier.
 */
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { ask } from '../ipc.ts';
import { httpOp } from '../load.ts';
import { log } from '../progress.ts';
import { payment } from '../requests.ts';
import * as stats from '../stats.ts';

export async function run(ctx: BenchContext): Promise<void> {
  const { small } = ctx;
  const wKey = ctx.keys.writer;
  const { wInvoices, payDate } = ctx.seeded;
  ctx.phase(`Durability barrier of npm start: add payment at c=1 with vs without (${SIZES.blocks} interleaved blocks)`);
  const barrier = (on: boolean) => ask<string[]>(small.child, { type: 'durabilityBarrier', on });
  const pay = (count: number) => () =>
    drive(
      count,
      1,
      httpOp(small.port, () => payment(wKey, wInvoices[0]!, payDate), 201, {}),
    );
  const withBarrier = (count: number) => async () => {
    await barrier(true);
    try {
      return await pay(count)();
    } finally {
      await barrier(false);
    }
  };
  await withBarrier(SIZES.warmup)(); // the barrier's code path, new to the process's JIT
  const barrierRatios: number[] = [];
  const barrierMs: number[] = [];
  for (let b = 0; b < SIZES.blocks; b++) {
    const runWith = withBarrier(SIZES.comparisonPerBlock);
    const runWithout = pay(SIZES.comparisonPerBlock);
    const first = await (b % 2 === 0 ? runWith : runWithout)();
    const second = await (b % 2 === 0 ? runWithout : runWith)();
    const [withRun, withoutRun] = b % 2 === 0 ? [first, second] : [second, first];
    const [p50With, p50Without] = [stats.median(withRun.samples), stats.median(withoutRun.samples)];
    barrierRatios.push(stats.ratio(p50With, p50Without));
    barrierMs.push(p50With - p50Without);
  }
  const barrierCost = { p50Ratio: stats.spreadOf(barrierRatios, 3), p50ExtraMs: stats.spreadOf(barrierMs, 2) };
  ctx.results.durabilityBarrier = barrierCost;
  log(
    `  latency p50 with ÷ without ${stats.formatSpread(barrierCost.p50Ratio)}, ${stats.formatSpread(barrierCost.p50ExtraMs)} ms more per payment`,
  );
  ctx.budgets.push({
    // One more DynamoDB Local round trip on top of the payment's two (read, transaction) and the HTTP hop.
    name: 'npm start durability barrier: add payment p50 with ÷ without',
    value: barrierCost.p50Ratio.median,
    spread: barrierCost.p50Ratio,
    comparator: '<=',
    limit: 2,
  });
}
