/** Many tenants: add payment at concurrency 8 from one account vs from 8 accounts (one per worker), interleaved. */
import { CONCURRENCY, SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { httpOp } from '../load.ts';
import { log } from '../progress.ts';
import { payment } from '../requests.ts';
import * as stats from '../stats.ts';

type TenantBlock = { oneAccount: number; manyAccounts: number; ratio: number; statuses: Record<string, number> };

/** Block `b`: one account and many accounts, one after the other (the one account first in even blocks). */
async function tenantBlock(ctx: BenchContext, b: number): Promise<TenantBlock> {
  const { small } = ctx;
  const wKey = ctx.keys.writer;
  const { wInvoices, payerInvoices, payDate } = ctx.seeded;
  const statuses: Record<string, number> = {};
  const one = () =>
    drive(
      SIZES.tenantsPerBlock,
      CONCURRENCY,
      httpOp(small.port, (_i, worker) => payment(wKey, wInvoices[worker]!, payDate), 201, statuses),
    );
  const many = () =>
    drive(
      SIZES.tenantsPerBlock,
      CONCURRENCY,
      httpOp(
        small.port,
        (_i, worker) => payment(payerInvoices[worker]!.key, payerInvoices[worker]!.ref, payDate),
        201,
        statuses,
      ),
    );
  const [a, m] =
    b % 2 === 0
      ? [await one(), await many()]
      : await (async () => {
          const mm = await many();
          return [await one(), mm];
        })();
  const oneRate = stats.throughput(a.samples.length, a.elapsedMs);
  const manyRate = stats.throughput(m.samples.length, m.elapsedMs);
  return { oneAccount: oneRate, manyAccounts: manyRate, ratio: stats.ratio(manyRate, oneRate), statuses };
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(`Many tenants: add payment at concurrency 8, one account vs ${CONCURRENCY} accounts (interleaved blocks)`);
  const tenantBlocks: TenantBlock[] = [];
  for (let b = 0; b < SIZES.blocks; b++) tenantBlocks.push(await tenantBlock(ctx, b));
  const tenants = stats.spreadOf(tenantBlocks.map((b) => b.ratio));
  ctx.results.manyTenants = {
    blocks: tenantBlocks,
    ratio: tenants,
    singleAccountEndpointPhase: ctx.later.singleAccountPayment,
  };
  log(
    `  one account ${stats.formatSpread(
      stats.spreadOf(
        tenantBlocks.map((b) => b.oneAccount),
        1,
      ),
    )}/s, ${CONCURRENCY} accounts ${stats.formatSpread(
      stats.spreadOf(
        tenantBlocks.map((b) => b.manyAccounts),
        1,
      ),
    )}/s, ratio ${stats.formatSpread(tenants)}`,
  );
  ctx.budgets.push({
    name: `add payment c=8 across ${CONCURRENCY} accounts ÷ one account`,
    value: tenants.median,
    spread: tenants,
    comparator: '>=',
    limit: 0.95,
  });
}
