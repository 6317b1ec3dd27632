/** The benchmark's settings: tables, block sizes (BENCH_QUICK, BENCH_BLOCKS) and the run's tag. */
import path from 'node:path';

export const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const SMALL_TABLE = 'bench-1k';
export const LARGE_TABLE = 'bench-50k';
export const QUICK = process.env.BENCH_QUICK === '1';
export const SIZES = {
  historyInvoices: 120,
  /** Payments in the large table of the scale phase (bench-50k): 50,000, or 2,000 in a quick run. */
  largeTablePayments: QUICK ? 2_000 : 50_000,
  /** Open invoices of the two aging accounts (the receivables phase): 1,000 and 10,000, or 300 and 600 quick. */
  agingInvoices: QUICK ? [300, 600] : [1_000, 10_000],
  /** Requests per block and side of the scale phase's two endpoint-against-floor comparisons (c=1). */
  scalePerBlock: QUICK ? 20 : 40,
  /**
   * Pairs of blocks in each of the scale phase's four rounds: each table's overhead is the median of its two rounds'
   * blocks, 6 (2 × 3) a table; it judges two p50 medians, no p99, and 2 × 4 made the phase a sixth of a run.
   */
  scaleBlocksPerRound: QUICK ? 2 : 3,
  /**
   * History requests the runtime serves before the scale phase's rounds (its JIT for the page: bench/phases/scale.ts).
   * When each table had a runtime process of its own, 300 left the large table's the colder of the two (overhead
   * 1.03–1.11 over its blocks against 0.93–1.08 at 1,000 payments) and each got 600; one process now serves both
   * tables, so the JIT is the same for both and the warm-up is done once; with the warm-up phase's history requests
   * and the rewarm before the small table's early round it is past 200 before any block, and the order small, large,
   * large, small gives each table an early and a late round whatever JIT is still to come.
   */
  scaleWarmup: QUICK ? 50 : 100,
  /**
   * History requests the runtime serves again before a round on the other table than the last round's (each side's
   * floor 40): not before the second large round, which follows the first.
   */
  scaleRewarm: QUICK ? 20 : 60,
  /** Clients added to the history account, so that the client list has a page of 100. */
  listedClients: 110,
  // Endpoint and floor blocks are interleaved this many times, alternating which goes first; an even count runs
  // each order equally often (the second block of a pair can pay for the first's garbage collection). At least 3 in
  // a full run; a quick run (for developing the bench, its figures too noisy to judge) takes 2. Six were tried and not
  // kept: the first row's CPU at c=1 rose over its budget.
  blocks: Math.max(QUICK ? 2 : 3, Number(process.env.BENCH_BLOCKS ?? (QUICK ? 2 : 4)) || 4),
  /**
   * Requests per block at concurrency 1 (each side). The p99 pools every block's requests: 400 a side, the fifth
   * slowest by nearest rank, four beyond it, is the least a p99 needs (no one to three stray requests decide it). The
   * same code's list clients row once read 0.84–1.58 beyond DynamoDB Local's tail between runs at 400; 800 made the
   * endpoint rows 900 s of a 2,154 s run. BENCH_BLOCKS=8 pools 800 for a row whose p99 is in doubt.
   */
  perBlock1: QUICK ? 20 : 100,
  /**
   * Requests per block at concurrency 8 (each side): 12 rounds of the 8 workers, the throughput judged per block (the
   * median of 4: at 96 the history ratio's blocks ranged 0.75–0.86, at 240 0.76–0.80) and the tail p99 pooled over the
   * 400 as at c=1.
   */
  perBlock8: QUICK ? 40 : 100,
  /** Each row's requests in the warm-up phase (c=4), the JIT of Node and of DynamoDB Local; each row warms its floor. */
  warmup: QUICK ? 20 : 40,
  floorWarmup: QUICK ? 10 : 40,
  scaleSamples: QUICK ? 20 : 100,
  /**
   * Requests per range of the period-totals phase (a p50 each, the ranges taking turns). Its budget is the year's p50,
   * a guard of twice the measured 68–74 ms: a median of 50 is within a few per cent of one of 100 there.
   */
  summarySamples: QUICK ? 20 : 50,
  /**
   * Requests per block and side of the with-against-without comparisons at c=1 (the durability barrier, the webhook
   * events): each compares two p50s, no p99, and the barrier's ratio (one read added to two round trips, ≤ 2) is far
   * from its limit: a p50 of 50 needs no tail, and the events' comparison has no budget.
   */
  comparisonPerBlock: QUICK ? 20 : 50,
  coldRuns: QUICK ? 5 : 15, // fresh processes per bundle: a median of 15, the bundles interleaved
  captures: QUICK ? 3 : 10,
  // The pages-by-bytes account: this many payments, each on its own invoice; the byte cap ends a page at 53 of them.
  pageInvoices: QUICK ? 60 : 100,
  pageItems: 60, // items per invoice (long names and descriptions, near the 64 KiB body limit)
  pagePerBlock: QUICK ? 3 : 10, // big pages per block and side: at 6 the CPU-per-byte blocks ranged 0.79–1.65 (major GCs)
  /**
   * Requests per block and side at c=8 of many tenants and of the receivables' payments with and without their items:
   * each judges a ratio of throughputs or of mean latencies per block (no p99), 15 rounds of the 8 workers a block.
   */
  tenantsPerBlock: QUICK ? 40 : 120,
};
export const CONCURRENCY = 8;
/** Tags this run's idempotency keys, e-mail addresses and floor replays. */
export const runTag = Date.now().toString(36);
