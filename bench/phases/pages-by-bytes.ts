/**
 * Pages by bytes: the history of an account whose payments are on invoices of long items, so that a page of 100
 * nears the cap on a history page's body (shared/domain/page-size.ts). Its size, and whether the runtime's CPU grows
 * with the bytes no faster than linearly (limit 100 ÷ limit 25, per byte), in blocks beside the floor.
 */
import { MAX_PAGE_BYTES } from '../../shared/domain/page-size.ts';
import { capture } from '../capture.ts';
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { checkFloor, floorTemplate, prepareFloor, runFloor, runFloorBlock } from '../floor.ts';
import { httpOp, measuredBlock } from '../load.ts';
import { log } from '../progress.ts';
import { call, history, historyPage } from '../requests.ts';
import type { PairFigures, SideFigures } from '../stats.ts';
import * as stats from '../stats.ts';

type PageFigures = Awaited<ReturnType<typeof pageOf>>;

interface BigBlock {
  endpoint: SideFigures;
  floor: SideFigures;
  pair: PairFigures;
  quarter: SideFigures;
  perByte: number;
}

async function pageOf(ctx: BenchContext, limit: number) {
  const page = await call(ctx.small.port, historyPage(ctx.keys.pages, limit), 200);
  return {
    limit,
    bytes: Buffer.byteLength(page.body),
    payments: page.json.data.payments.length as number,
    nextCursor: page.json.data.next_cursor !== null,
  };
}

/** Captures the big page, checks its floor, warms both sides up and prepares every block's replays. */
async function prepareBigPage(ctx: BenchContext) {
  const pKey = ctx.keys.pages;
  const bigCapture = await capture(ctx.small, () => historyPage(pKey, 100), 200, 1);
  const bigTemplate = floorTemplate(bigCapture.template);
  const bigCheck = await checkFloor(bigTemplate, bigCapture.template, 'pk');
  log(`  floor check (limit 100): ${bigCheck.line}`);
  for (let w = 0; w < 2; w++) await call(ctx.small.port, historyPage(pKey, 25), 200);
  const bigRequest = () => historyPage(pKey, 100);
  await runFloor(bigTemplate, 2, 1, 'pw', bigRequest, bigCapture.responseBytes);
  for (let b = 0; b < SIZES.blocks; b++)
    await prepareFloor(`p${b}`, bigTemplate, SIZES.pagePerBlock, bigCapture.responseBytes);
  return { bigCapture, bigRequest };
}

/** Per block: the big page, its floor, then the quarter page; the CPU per byte of the big over the quarter. */
async function runBlocks(
  ctx: BenchContext,
  bigRequest: () => ReturnType<typeof historyPage>,
  bigPage: PageFigures,
  quarterPage: PageFigures,
): Promise<BigBlock[]> {
  const { small } = ctx;
  const pKey = ctx.keys.pages;
  const bigBlocks: BigBlock[] = [];
  for (let b = 0; b < SIZES.blocks; b++) {
    const e = await measuredBlock('endpoint', () =>
      drive(
        SIZES.pagePerBlock,
        1,
        httpOp(small.port, () => historyPage(pKey, 100), 200, {}),
      ),
    );
    const fl = await measuredBlock('floor', () => runFloorBlock(`p${b}`, 1, SIZES.pagePerBlock, bigRequest));
    const q = await measuredBlock('endpoint', () =>
      drive(
        SIZES.pagePerBlock,
        1,
        httpOp(small.port, () => historyPage(pKey, 25), 200, {}),
      ),
    );
    bigBlocks.push({
      endpoint: e.figures,
      floor: fl.figures,
      pair: stats.pairFigures(e.figures, fl.figures),
      quarter: q.figures,
      perByte: stats.perByteRatio(
        { cost: e.figures.processCpuMs, bytes: bigPage.bytes },
        { cost: q.figures.processCpuMs, bytes: quarterPage.bytes },
      ),
    });
  }
  return bigBlocks;
}

/** The medians (and ranges) of the blocks. */
function summarise(bigBlocks: BigBlock[]) {
  const spreadOfBlocks = (figure: (block: BigBlock) => number) => stats.spreadOf(bigBlocks.map(figure), 1);
  return {
    perByte: stats.spreadOf(bigBlocks.map((b) => b.perByte)),
    bigRatio: stats.spreadOf(bigBlocks.map((b) => b.pair.p50Ratio)),
    bigOurCpu: spreadOfBlocks((b) => b.pair.ourCpuMs),
    bigRuntimeCpu: spreadOfBlocks((b) => b.endpoint.processCpuMs).median,
    quarterRuntimeCpu: spreadOfBlocks((b) => b.quarter.processCpuMs).median,
    bigP50: spreadOfBlocks((b) => b.endpoint.p50).median,
    bigFloorP50: spreadOfBlocks((b) => b.floor.p50).median,
    quarterP50: spreadOfBlocks((b) => b.quarter.p50).median,
  };
}

type Summary = ReturnType<typeof summarise>;

function logFigures(
  defaultPage: { bytesPerPayment: number; pageBytes: number },
  bigPage: PageFigures,
  quarterPage: PageFigures,
  rcu: number,
  s: Summary,
): void {
  const mb = (bytes: number) => bytes / 1e6;
  log(
    `  default shape (history page of 100 above): ${defaultPage.bytesPerPayment} bytes per payment (${defaultPage.pageBytes} bytes per page)`,
  );
  log(
    `  limit 100: ${bigPage.payments} payments, ${bigPage.bytes} bytes (${Math.round(bigPage.bytes / bigPage.payments)} per payment), next_cursor ${bigPage.nextCursor ? 'set' : 'null'}, ${rcu} RCU`,
  );
  log(
    `    p50 ${s.bigP50} ms (floor ${s.bigFloorP50}, ratio ${stats.formatSpread(s.bigRatio)}), runtime CPU ${s.bigRuntimeCpu} ms (${stats.round(s.bigRuntimeCpu / mb(bigPage.bytes), 1)} ms/MB), ours ${stats.formatSpread(s.bigOurCpu)} ms`,
  );
  log(
    `  limit 25:  ${quarterPage.payments} payments, ${quarterPage.bytes} bytes, p50 ${s.quarterP50} ms, runtime CPU ${s.quarterRuntimeCpu} ms (${stats.round(s.quarterRuntimeCpu / mb(quarterPage.bytes), 1)} ms/MB)`,
  );
  log(
    `  runtime CPU per byte, limit 100 ÷ limit 25: ${stats.formatSpread(s.perByte)} (≤ 1: linear in bytes plus a fixed part per request)`,
  );
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(
    `Pages by bytes: history of ${SIZES.pageInvoices} payments on ${SIZES.pageItems}-item invoices (cap ${MAX_PAGE_BYTES.toLocaleString('en')} bytes)`,
  );
  const defaultPage = await call(ctx.small.port, history(ctx.keys.history), 200);
  const defaultShape = {
    bytesPerPayment: Math.round(Buffer.byteLength(defaultPage.body) / defaultPage.json.data.payments.length),
    pageBytes: Buffer.byteLength(defaultPage.body),
    payments: defaultPage.json.data.payments.length,
  };
  const bigPage = await pageOf(ctx, 100);
  const quarterPage = await pageOf(ctx, 25);
  const { bigCapture, bigRequest } = await prepareBigPage(ctx);
  const bigBlocks = await runBlocks(ctx, bigRequest, bigPage, quarterPage);
  const s = summarise(bigBlocks);
  ctx.results.pagesByBytes = {
    defaultShape,
    bigPage: {
      ...bigPage,
      bytesPerPayment: Math.round(bigPage.bytes / bigPage.payments),
      p50: s.bigP50,
      floorP50: s.bigFloorP50,
      runtimeCpuMs: s.bigRuntimeCpu,
      ourCpuMs: s.bigOurCpu,
      ratioP50: s.bigRatio,
      rcu: bigCapture.rcu,
    },
    quarterPage: { ...quarterPage, p50: s.quarterP50, runtimeCpuMs: s.quarterRuntimeCpu },
    cpuPerByteBigOverQuarter: s.perByte,
    blocks: bigBlocks,
  };
  logFigures(defaultShape, bigPage, quarterPage, bigCapture.rcu, s);
  ctx.budgets.push({
    name: `history page bytes (${SIZES.pageItems}-item invoices, limit 100)`,
    value: bigPage.bytes,
    comparator: '<=',
    limit: MAX_PAGE_BYTES - 1,
    unit: 'bytes',
  });
  ctx.budgets.push({
    name: 'history CPU per byte, big page ÷ quarter page',
    value: s.perByte.median,
    spread: s.perByte,
    comparator: '<=',
    limit: 1.25,
  });
}
