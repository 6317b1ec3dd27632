/** The benchmark's settings: tables, block sizes (BENCH_QUICK, BENCH_BLOCKS) and the run's tag. */
import path from 'node:path';

export const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const SMALL_TABLE = 'bench-1k';
export const LARGE_TABLE = 'bench-50k';
export const QUICK = process.env.BENCH_QUICK === '1';
export const SIZES = {
  historyInvoices: 120,
  /** Clients added to the history account, so that the client list has a page of 100. */
  listedClients: 110,
  // Endpoint and floor blocks are interleaved this many times, alternating which goes first; an even count runs
  // each order equally often (the second block of a pair can pay for the first's garbage collection).
  blocks: Math.max(3, Number(process.env.BENCH_BLOCKS ?? 4) || 4),
  perBlock1: QUICK ? 30 : 100, // requests per block at concurrency 1 (each side)
  perBlock8: QUICK ? 64 : 240, // requests per block at concurrency 8 (each side); at 96 the history ratio swung 0.75–0.86
  warmup: QUICK ? 30 : 60,
  floorWarmup: QUICK ? 16 : 40,
  scaleSamples: QUICK ? 40 : 100,
  coldRuns: QUICK ? 7 : 21,
  captures: 10,
  pageInvoices: 100, // the pages-by-bytes account: this many payments, each on its own invoice
  pageItems: 60, // items per invoice (long names and descriptions, near the 64 KiB body limit)
  pagePerBlock: QUICK ? 4 : 12, // big pages per block and side: at 6 the CPU-per-byte blocks ranged 0.79–1.65 (major GCs)
  tenantsPerBlock: QUICK ? 64 : 240,
};
export const CONCURRENCY = 8;
/** Tags this run's idempotency keys, e-mail addresses and floor replays. */
export const runTag = Date.now().toString(36);
