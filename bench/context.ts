/** What bench/main.ts hands every phase (bench/phases/): the processes, the seeded data and where results go. */
import type { CalendarDate } from '../shared/domain/dates.ts';
import type { buildBundles } from './cold-start.ts';
import type { EndpointDef } from './endpoint-defs.ts';
import type { Child } from './processes.ts';
import type { Budget, Spread } from './stats.ts';

/** The data seeding left for the phases (bench/seeding.ts). */
export interface Seeded {
  /** Payments in the small and the large table. */
  smallCount: number;
  largeCount: number;
  /** An invoice of the history account (paid, so it has a latest payment) and its client. */
  hInvoice: string;
  hClientId: number;
  /** The token of that invoice's hosted page (`GET /i/{token}`). */
  hToken: string;
  /** The writer account's client, and its invoices to pay (one per load-generator worker). */
  wClientId: number;
  /** One client of the writer account per load-generator worker (the update-client row). */
  wClients: number[];
  wInvoices: string[];
  /** One account per worker, each with one client and its invoice to pay (many tenants). */
  payerInvoices: { key: string; ref: string }[];
  /** One account seeded as the payers are, its clients and invoices one per worker (many tenants' one account). */
  soloInvoices: { key: string; ref: string }[];
  /**
   * Payments to reverse: per invoice of the writer account (one per load-generator worker), its payment ids newest
   * first (bench/seeding.ts `seedReversals`; handed out by bench/reversal-pool.ts).
   */
  reversalPool: number[][];
  /** What the delete rows delete, each once (bench/deletion-pool.ts). */
  deletable: { invoices: string[]; clients: number[] };
  /** The date of the payments the bench adds. */
  payDate: CalendarDate;
}

export interface BenchContext {
  /** DynamoDB Local's endpoint. */
  endpoint: string;
  /** The local runtime on the small table: the endpoint measured against the floor. */
  small: Child;
  /** The runtime on the large table (the scale phase stops it). */
  large: Child;
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
  };
}
