/**
 * The HTTP hop alone. Part of "our time" is the local runtime's HTTP server and the load generator's client, which
 * Lambda replaces with API Gateway: measured alone (an empty route, a write-sized body) so the report can separate it.
 */
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { httpOp, measuredBlock } from '../load.ts';
import { log } from '../progress.ts';
import { payment } from '../requests.ts';
import * as stats from '../stats.ts';

export async function run(ctx: BenchContext): Promise<void> {
  const { small } = ctx;
  const wKey = ctx.keys.writer;
  const { payDate } = ctx.seeded;
  ctx.phase('HTTP hop alone (empty route of the local runtime, concurrency 1)');
  await drive(
    50,
    1,
    httpOp(small.port, () => ({ path: '/__bench/hop', headers: {}, body: payment(wKey, 'X', payDate).body }), 200, {}),
  );
  const hop = await measuredBlock('endpoint', () =>
    drive(
      SIZES.perBlock1 * 2,
      1,
      httpOp(
        small.port,
        () => ({ path: '/__bench/hop', headers: {}, body: payment(wKey, 'X', payDate).body }),
        200,
        {},
      ),
    ),
  );
  ctx.results.httpHop = hop.figures;
  log(
    `  p50 ${stats.round(hop.figures.p50)} ms, mean ${stats.round(hop.figures.meanMs)} ms; runtime CPU ${stats.round(hop.figures.processCpuMs)} ms and load generator CPU ${stats.round(hop.figures.loadGeneratorCpuMs)} ms per request`,
  );
}
