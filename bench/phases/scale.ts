/**
 * Scale: the history page of the same account with 1,000 vs 50,000 payments in the table (interleaved, c=1), and
 * the capacity it reads. Stops the runtime on the large table when done.
 */

import { capture } from '../capture.ts';
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive, type Run } from '../drive.ts';
import { describeRun, httpOp, merge } from '../load.ts';
import { stopChild } from '../processes.ts';
import { log } from '../progress.ts';
import { history } from '../requests.ts';
import * as stats from '../stats.ts';

export async function run(ctx: BenchContext): Promise<void> {
  const { small, large } = ctx;
  const { smallCount, largeCount } = ctx.seeded;
  const hKey = ctx.keys.history;
  ctx.phase(`Scale: history page with ${smallCount} vs ${largeCount} payments (interleaved, concurrency 1)`);
  const scaleSmall: Run[] = [];
  const scaleLarge: Run[] = [];
  const block = Math.ceil(SIZES.scaleSamples / 10);
  for (let r = 0; r < 10; r++) {
    scaleSmall.push(
      await drive(
        block,
        1,
        httpOp(small.port, () => history(hKey), 200, {}),
      ),
    );
    scaleLarge.push(
      await drive(
        block,
        1,
        httpOp(large.port, () => history(hKey), 200, {}),
      ),
    );
  }
  const capSmall = await capture(small, () => history(hKey), 200, 3);
  const capLarge = await capture(large, () => history(hKey), 200, 3);
  const scale = {
    small: {
      payments: smallCount,
      ...describeRun(merge(scaleSmall)),
      rcu: capSmall.rcu,
      roundTrips: capSmall.roundTrips.max,
    },
    large: {
      payments: largeCount,
      ...describeRun(merge(scaleLarge)),
      rcu: capLarge.rcu,
      roundTrips: capLarge.roundTrips.max,
    },
  };
  const scaleRatio = stats.ratio(scale.large.p50, scale.small.p50);
  ctx.results.scale = { ...scale, latencyRatioP50: scaleRatio, capacityUnchanged: capSmall.rcu === capLarge.rcu };
  ctx.later.scale = { latencyRatioP50: scaleRatio, rcuSmall: capSmall.rcu, rcuLarge: capLarge.rcu };
  log(`  ${smallCount}: p50 ${scale.small.p50} ms, p99 ${scale.small.p99} ms, ${scale.small.rcu} RCU`);
  log(`  ${largeCount}: p50 ${scale.large.p50} ms, p99 ${scale.large.p99} ms, ${scale.large.rcu} RCU`);
  await stopChild(large);
  ctx.children.splice(ctx.children.indexOf(large), 1);
}

/** The scale phase's budgets: pushed after the other phases', where the report has always listed them. */
export function pushBudgets(ctx: BenchContext): void {
  const { smallCount, largeCount } = ctx.seeded;
  const scale = ctx.later.scale!;
  ctx.budgets.push({
    name: `history latency ratio ${largeCount}/${smallCount}`,
    value: scale.latencyRatioP50,
    comparator: '<=',
    limit: 1.2,
  });
  ctx.budgets.push({
    name: 'history RCU at 50k minus at 1k',
    value: scale.rcuLarge - scale.rcuSmall,
    comparator: '==',
    limit: 0,
    unit: 'RCU',
  });
}
