/**
 * One account's payments at c=8 with the receivables items against without them (docs/performance.md
 * "Receivables"): the same code, the same run, on 8 invoices that keep the items and on 8 made to look written before
 * aging (no `in_aging`: their payments skip them). DynamoDB Local runs transactions one at a time, so a transaction of
 * 8 items costs it more than one of 5 whatever our code does: the floor replays both captured transactions the same
 * way, and the budget is the endpoint's ratio over the floor's — what the items cost beyond DynamoDB Local's own price
 * for them (a hot item, a retry, more of our work would show there).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addDays } from '../../shared/domain/dates.ts';
import { createAccount } from '../../shared/store/accounts.ts';
import { keys } from '../../shared/store/keys.ts';
import { capture } from '../capture.ts';
import { CONCURRENCY, SIZES, SMALL_TABLE } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive, type Run } from '../drive.ts';
import { floorTemplate, runFloor } from '../floor.ts';
import { httpOp } from '../load.ts';
import { log } from '../progress.ts';
import { call, clientIdInvoice, newClientInvoice, payment, TODAY } from '../requests.ts';
import { seedingClient } from '../seeding.ts';
import * as stats from '../stats.ts';

const PAY_DATE = addDays(TODAY, -1);

/** 8 invoices of the account's client; `legacy` ones lose their `in_aging` mark (as if written before aging). */
async function invoices(ctx: BenchContext, key: string, clientId: number, legacy: boolean): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++)
    refs.push(
      (await call(ctx.small.port, clientIdInvoice(key, clientId, '900,000,000.00'), 201)).json.data.reference_code,
    );
  if (!legacy) return refs;
  const client = seedingClient(ctx.endpoint);
  for (const ref of refs)
    await client.send(
      new UpdateCommand({ TableName: SMALL_TABLE, Key: keys.invoiceHeader(ref), UpdateExpression: 'REMOVE in_aging' }),
    );
  client.destroy();
  return refs;
}

const rate = (r: Run) => stats.throughput(r.samples.length, r.elapsedMs);

export async function throughput(ctx: BenchContext) {
  const { secretKey: key } = await createAccount({ name: 'Bench receivables writer' });
  const clientId = Number((await call(ctx.small.port, newClientInvoice(key), 201)).json.data.client.id);
  const sides = { with: await invoices(ctx, key, clientId, false), without: await invoices(ctx, key, clientId, true) };
  const make = (refs: string[]) => (_i: number, w: number) => payment(key, refs[w]!, PAY_DATE);
  const captured = {
    with: await capture(ctx.small, () => make(sides.with)(0, 0), 201, 1),
    without: await capture(ctx.small, () => make(sides.without)(0, 0), 201, 1),
  };
  const perBlock = SIZES.tenantsPerBlock;
  const endpoint = (side: 'with' | 'without') =>
    drive(perBlock, CONCURRENCY, httpOp(ctx.small.port, make(sides[side]), 201, {}));
  const floor = (side: 'with' | 'without', b: number) =>
    runFloor(floorTemplate(captured[side].template), perBlock, CONCURRENCY, `rt${side}${b}`, make(sides[side]), 0);
  const blocks: { endpoint: number; floor: number; ofFloor: number; perSecond: number[] }[] = [];
  for (let b = 0; b < SIZES.blocks; b++) {
    const order = b % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
    const r: Record<string, number> = {};
    for (const side of order) r[`e${side}`] = rate(await endpoint(side));
    for (const side of order) r[`f${side}`] = rate(await floor(side, b));
    const e = stats.ratio(r.ewith!, r.ewithout!);
    const f = stats.ratio(r.fwith!, r.fwithout!);
    blocks.push({
      endpoint: e,
      floor: f,
      ofFloor: stats.ratio(e, f),
      perSecond: [r.ewith!, r.ewithout!, r.fwith!, r.fwithout!],
    });
  }
  const spread = (key: 'endpoint' | 'floor' | 'ofFloor') => stats.spreadOf(blocks.map((b) => b[key]));
  const figures = { endpoint: spread('endpoint'), floor: spread('floor'), ofFloor: spread('ofFloor') };
  log(
    `  add payment c=8, one account, with the receivables items ÷ without: endpoint ${stats.formatSpread(figures.endpoint)}, floor (DynamoDB Local alone) ${stats.formatSpread(figures.floor)}, endpoint ÷ floor ${stats.formatSpread(figures.ofFloor)} (per s: ${blocks.map((b) => b.perSecond.join('/')).join(', ')})`,
  );
  ctx.budgets.push({
    name: 'add payment c=8, one account: with the receivables items ÷ without, over the floor’s same ratio',
    value: figures.ofFloor.median,
    spread: figures.ofFloor,
    comparator: '>=',
    limit: 0.95,
    basis: `the endpoint's ratio ${figures.endpoint.median} ÷ DynamoDB Local's own ${figures.floor.median} (5-item vs 8-item transactions replayed)`,
  });
  return { blocks, ...figures };
}
