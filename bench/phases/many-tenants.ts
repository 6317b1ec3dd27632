/**
 * Many tenants: add payment at concurrency 8 in one account vs across 8 accounts (one per worker), interleaved. Both
 * sides' accounts are seeded the same way and paid only here (bench/seeding.ts `seedWrites`): each worker pays its own
 * client's invoice, so the one variable is whether the 8 clients share an account. The writer account, paid by the
 * endpoint rows before, made the one-account side a different account with a different history.
 */
import { CONCURRENCY, SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { tenantRatioBeyondDynamoDb } from '../dynamo-tail.ts';
import { httpOp, measuredBlock } from '../load.ts';
import { log } from '../progress.ts';
import { payment } from '../requests.ts';
import type { SideFigures } from '../stats.ts';
import * as stats from '../stats.ts';

type TenantSide = { throughput: number; figures: SideFigures };
type TenantBlock = {
  oneAccount: TenantSide;
  manyAccounts: TenantSide;
  /** Throughput, 8 accounts ÷ one account. */
  ratio: number;
  /** The same with the two sides' difference in DynamoDB time per request taken out (bench/dynamo-tail.ts). */
  beyondDynamoDb: number;
  statuses: Record<string, number>;
};
type Payable = { key: string; ref: string };

/** One side of a block: each worker pays its own invoice, with its CPU and DynamoDB time accounted for. */
async function tenantSide(ctx: BenchContext, invoices: Payable[], statuses: Record<string, number>) {
  const { payDate } = ctx.seeded;
  const pay = (_i: number, worker: number) => payment(invoices[worker]!.key, invoices[worker]!.ref, payDate);
  const { run, figures } = await measuredBlock('endpoint', () =>
    drive(SIZES.tenantsPerBlock, CONCURRENCY, httpOp(ctx.small.port, pay, 201, statuses)),
  );
  return { throughput: stats.throughput(run.samples.length, run.elapsedMs), figures };
}

/** Block `b`: one account and many accounts, one after the other (the one account first in even blocks). */
async function tenantBlock(ctx: BenchContext, b: number): Promise<TenantBlock> {
  const statuses: Record<string, number> = {};
  const one = () => tenantSide(ctx, ctx.seeded.soloInvoices, statuses);
  const many = () => tenantSide(ctx, ctx.seeded.payerInvoices, statuses);
  const oneFirst = b % 2 === 0;
  const first = await (oneFirst ? one() : many());
  const second = await (oneFirst ? many() : one());
  const [oneAccount, manyAccounts] = oneFirst ? [first, second] : [second, first];
  const beyondDynamoDb = tenantRatioBeyondDynamoDb({
    oneAccountMeanMs: oneAccount.figures.meanMs,
    manyAccountsMeanMs: manyAccounts.figures.meanMs,
    oneAccountDynamoMs: oneAccount.figures.dynamoMs,
    manyAccountsDynamoMs: manyAccounts.figures.dynamoMs,
  });
  const ratio = stats.ratio(manyAccounts.throughput, oneAccount.throughput);
  return { oneAccount, manyAccounts, ratio, beyondDynamoDb, statuses };
}

/** Per side, the median over the blocks of what a request cost where (printed beside the ratio). */
function sideCosts(blocks: TenantBlock[], side: 'oneAccount' | 'manyAccounts') {
  const median = (pick: (figures: SideFigures) => number) =>
    stats.spreadOf(
      blocks.map((block) => pick(block[side].figures)),
      2,
    ).median;
  return {
    throughputPerSecond: stats.spreadOf(
      blocks.map((block) => block[side].throughput),
      1,
    ),
    ourCpuMs: median((f) => f.processCpuMs),
    dynamoMs: median((f) => f.dynamoMs),
    dynamoDbLocalCpuMs: median((f) => f.dynamoDbLocalCpuMs),
  };
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(`Many tenants: add payment at concurrency 8, one account vs ${CONCURRENCY} accounts (interleaved blocks)`);
  const tenantBlocks: TenantBlock[] = [];
  for (let b = 0; b < SIZES.blocks; b++) tenantBlocks.push(await tenantBlock(ctx, b));
  const tenants = stats.spreadOf(tenantBlocks.map((b) => b.ratio));
  const beyondDynamoDb = stats.spreadOf(tenantBlocks.map((b) => b.beyondDynamoDb));
  const oneAccount = sideCosts(tenantBlocks, 'oneAccount');
  const manyAccounts = sideCosts(tenantBlocks, 'manyAccounts');
  ctx.results.manyTenants = {
    blocks: tenantBlocks,
    ratio: tenants,
    beyondDynamoDb,
    oneAccount,
    manyAccounts,
    singleAccountEndpointPhase: ctx.later.singleAccountPayment,
  };
  const describe = (side: typeof oneAccount) =>
    `${stats.formatSpread(side.throughputPerSecond)}/s (per request: our CPU ${side.ourCpuMs} ms, DynamoDB ` +
    `${side.dynamoMs} ms, DynamoDB Local's CPU ${side.dynamoDbLocalCpuMs} ms)`;
  log(`  one account ${describe(oneAccount)}`);
  log(`  ${CONCURRENCY} accounts ${describe(manyAccounts)}`);
  log(
    `  ratio ${stats.formatSpread(tenants)}; beyond DynamoDB Local's difference ${stats.formatSpread(beyondDynamoDb)}`,
  );
  ctx.budgets.push({
    name: `add payment c=8 across ${CONCURRENCY} accounts ÷ one account, beyond DynamoDB Local's difference`,
    value: beyondDynamoDb.median,
    spread: beyondDynamoDb,
    comparator: '>=',
    limit: 0.95,
  });
}
