/** What bench/main.ts hands every phase (bench/phases/): the processes, the seeded data and where results go. */
import type { Budget } from './budgets.ts';
import type { CaptureFigures } from './capture.ts';
import type { buildBundles } from './cold-start.ts';
import type { EndpointDef } from './endpoint-defs.ts';
import type { Child } from './processes.ts';
import type { Seeded } from './seeding.ts';
import type { Spread } from './stats.ts';

export interface BenchContext {
  /** DynamoDB Local's endpoint. */
  endpoint: string;
  /** The local runtime, measured against the floor in every phase (the scale phase points it at the large table). */
  small: Child;
  /** The floor process (bench/floor-child.ts). */
  floor: Child;
  /** Every child process started, stopped when the bench ends (a phase that starts one adds it). */
  children: Child[];
  /** API keys: the history account, the writer account, the pages-by-bytes account. */
  keys: { history: string; writer: string; pages: string };
  seeded: Seeded;
  /** One entry per row of the report (bench/endpoint-defs.ts). */
  endpoints: EndpointDef[];
  /** The CDK synth building the cold-start bundles, started while seeding. */
  bundleBuild: ReturnType<typeof buildBundles>;
  /** The results file's content (bench/results/bench-<timestamp>.json). */
  results: Record<string, unknown>;
  /** The budgets, in the order they are reported. */
  budgets: Budget[];
  /** One line per endpoint for the markdown table printed at the end (docs/performance.md). */
  tableRows: string[];
  /** Starts a phase: prints its title and the time since the run started. */
  phase: (name: string) => void;
  /** Figures a phase leaves for a later one. */
  later: {
    /** The scale phase's, for its budgets (reported after many tenants). */
    scale?: { overheadRatio: number; rcuSmall: number; rcuLarge: number };
    /** The add payment endpoint's throughput at c=8 (one account), shown beside many tenants. */
    singleAccountPayment?: Spread;
    /** The add payment row's capture: the transaction the webhook events phase replays with and without its events. */
    paymentCapture?: CaptureFigures;
  };
}
