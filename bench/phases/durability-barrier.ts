/**
 * The local runtime's durability barrier. `npm start` holds each write's answer until DynamoDB Local made it
 * durable (docs/guarantees.md): one consistent GetItem after each transaction. A second runtime process with the
 * barrier, against the runtime without it, in interleaved blocks.
 */
import { SIZES, SMALL_TABLE } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { httpOp } from '../load.ts';
import { startChild, stopChild } from '../processes.ts';
import { log } from '../progress.ts';
import { payment } from '../requests.ts';
import * as stats from '../stats.ts';

export async function run(ctx: BenchContext): Promise<void> {
  const { small } = ctx;
  const wKey = ctx.keys.writer;
  const { wInvoices, payDate } = ctx.seeded;
  ctx.phase(`Durability barrier of npm start: add payment at c=1 with vs without (${SIZES.blocks} interleaved blocks)`);
  const withBarrier = await startChild('bench/server-child.ts', ctx.endpoint, SMALL_TABLE, {
    BENCH_DURABILITY_BARRIER: '1',
  });
  ctx.children.push(withBarrier);
  const barrierRatios: number[] = [];
  const barrierMs: number[] = [];
  const payOnce = (port: number) => () =>
    drive(
      SIZES.perBlock1,
      1,
      httpOp(port, () => payment(wKey, wInvoices[0]!, payDate), 201, {}),
    );
  for (let w = 0; w < 2; w++) await payOnce(withBarrier.port)(); // warm the new process
  for (let b = 0; b < SIZES.blocks; b++) {
    const runWith = payOnce(withBarrier.port);
    const runWithout = payOnce(small.port);
    const first = await (b % 2 === 0 ? runWith : runWithout)();
    const second = await (b % 2 === 0 ? runWithout : runWith)();
    const [withRun, withoutRun] = b % 2 === 0 ? [first, second] : [second, first];
    const [p50With, p50Without] = [stats.median(withRun.samples), stats.median(withoutRun.samples)];
    barrierRatios.push(stats.ratio(p50With, p50Without));
    barrierMs.push(p50With - p50Without);
  }
  await stopChild(withBarrier);
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
