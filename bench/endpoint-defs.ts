/**
 * The endpoints measured against their floor: one entry per row of the report. A row such as "add payment (with
 * events)" is one more entry whose `make` pays with an account that has a webhook endpoint set: the floor replays
 * whatever DynamoDB requests the captured request made (an outbox write included), so the row shows what events
 * cost beyond the floor.
 */
import type { CaptureFigures } from './capture.ts';
import type { Seeded } from './context.ts';
import {
  clientIdInvoice,
  clientUpdate,
  history,
  invoiceHistory,
  type MakeRequest,
  newClient,
  newClientInvoice,
  payment,
  publicPage,
  read,
  reversal,
  sendInvoice,
} from './requests.ts';
import { reversalPicker } from './reversal-pool.ts';
import * as stats from './stats.ts';

export interface EndpointDef {
  name: string;
  make: MakeRequest;
  /**
   * The requests the floor is sent instead (their bodies and headers; the path is the replay's), for a row whose
   * `make` uses up seeded data the floor's replays do not need. By default `make`.
   */
  floorMake?: MakeRequest;
  expected: number;
  /** Our CPU per request (runtime minus floor, concurrency 1), ms. */
  cpuBudgetMs: number;
  roundTripBudget: (captured: CaptureFigures) => number;
  wcuBudget?: number;
  /** Ratios to the floor, where this row's differ from the defaults (see `DEFAULT_RATIO_BUDGETS`). */
  ratioBudgets?: Partial<RatioBudgets>;
}

export interface RatioBudgets {
  /** Latency at c=1 ÷ floor, at most. */
  p50: number;
  p99: number;
  /** Throughput at c=8 ÷ floor, at least. */
  throughput: number;
  /** p99 at c=8 ÷ floor, at most. */
  tailP99: number;
}

export const DEFAULT_RATIO_BUDGETS: RatioBudgets = { p50: 1.15, p99: 1.25, throughput: 0.85, tailP99: 1.3 };

/**
 * Single-item reads: one ~2 ms DynamoDB Local round trip, so our fixed per-request work (middy, routing,
 * authentication cache, the view, the log line: 0.2–0.5 ms of CPU) is a larger share of the latency and of
 * the machine than for a write (docs/performance.md "Budgets"). Their absolute budgets (CPU, one round trip)
 * are the ones of the writes.
 */
const SINGLE_ITEM_READ: Partial<RatioBudgets> = { p50: 1.25, p99: 1.6, throughput: 0.7, tailP99: 1.5 };

/**
 * Reverse payment's write units as DynamoDB Local reports them (with the index and the idempotency record): 6 in every
 * captured request of the first runs (table 4, GSI1 2), as add payment's. The budget leaves add payment's headroom
 * (measured 6, budget 8): one more transactional item. DynamoDB Local under-reports transactions (its figure is not
 * even additive: one and two updates of existing 1.5 KB items both report 4), so this guards what it reports; what
 * AWS bills is computed in docs/cost.md (5 transactional items ≤ 1 KB at 2 WCU each, plus the index copies).
 */
const REVERSAL_WCU_BUDGET = 8;

export const endpointDefs = (keys: { history: string; writer: string }, seeded: Seeded): EndpointDef[] => {
  // One picker for the row's whole run: every request (and every floor replay's body) takes a payment never reversed.
  const nextReversal = reversalPicker(seeded.reversalPool);
  return [
    {
      name: 'add invoice (new client)',
      make: () => newClientInvoice(keys.writer),
      expected: 201,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
    },
    {
      name: 'add invoice (client_id)',
      make: () => clientIdInvoice(keys.writer, seeded.wClientId),
      expected: 201,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
    },
    {
      name: 'add payment',
      make: (_i, worker) => payment(keys.writer, seeded.wInvoices[worker % seeded.wInvoices.length]!, seeded.payDate),
      expected: 201,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
      wcuBudget: 8,
    },
    {
      name: 'history page of 100',
      make: () => history(keys.history),
      expected: 200,
      cpuBudgetMs: 5,
      roundTripBudget: (c) => stats.historyRoundTripBudget(c.keysRead),
    },
    // Invoice and client routes (docs/api.md "Invoices: read, list, delete", "Clients"): a single item is one round trip; listings are as history (a Query, then batched reads).
    {
      name: 'get invoice',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => read(keys.history, `/invoices/${seeded.hInvoice}`),
      expected: 200,
      cpuBudgetMs: 2,
      roundTripBudget: () => 1,
    },
    {
      name: 'get payment (latest)',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => read(keys.history, `/payments/${seeded.hInvoice}`),
      expected: 200,
      cpuBudgetMs: 2,
      roundTripBudget: () => 1,
    },
    {
      // The hosted invoice page (docs/sending-invoices.md): no key; the link's GetItem, then one BatchGetItem of the
      // invoice and its account. Rendering the page is a few hundred microseconds (the render phase measures it).
      name: 'hosted invoice page',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => publicPage(`/i/${seeded.hToken}`),
      expected: 200,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
    },
    {
      name: 'invoice history page of 100',
      make: () => invoiceHistory(keys.history),
      expected: 200,
      cpuBudgetMs: 5,
      // One Query, then the invoices' headers and bodies 50 invoices (100 keys) per BatchGetItem.
      roundTripBudget: () => 1 + Math.ceil(100 / 50),
    },
    {
      name: 'get client',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => read(keys.history, `/clients/${seeded.hClientId}`),
      expected: 200,
      cpuBudgetMs: 2,
      roundTripBudget: () => 1,
    },
    {
      name: 'list clients page of 100',
      make: () => read(keys.history, '/clients?limit=100'),
      expected: 200,
      cpuBudgetMs: 3,
      roundTripBudget: () => 1,
    },
    {
      name: 'add client',
      make: () => newClient(keys.writer),
      expected: 201,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
    },
    {
      // One client per worker: concurrent updates of one client conflict by design (its version pins each update).
      name: 'update client',
      make: (_i, worker) => clientUpdate(keys.writer, seeded.wClients[worker % seeded.wClients.length]!),
      expected: 200,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
    },
    {
      // docs/api.md "Reversing a payment". Each request reverses the newest not-yet-reversed payment of one of 8 invoices, and concurrent
      // requests reverse payments of different invoices (bench/reversal-pool.ts): concurrent reversals on one invoice
      // conflict by design (its header's version).
      name: 'reverse payment',
      make: (i, worker) => reversal(keys.writer, nextReversal(i, worker)),
      // The same body and headers (a fresh Idempotency-Key each): the floor replays the captured calls, whatever the id.
      floorMake: () => reversal(keys.writer, 0),
      expected: 200,
      cpuBudgetMs: 2,
      // Four, each naming what the next needs (shared/store/payment-reversals.ts `reversalKeys`): a consistent GetItem
      // of the payment (it names its invoice and its predecessor), a GetItem of the predecessor (it says whether the
      // walk back stops there: it does, the pool reverses newest first), one TransactGetItems of payment, invoice
      // header and body and predecessor (the decision's snapshot read: docs/decisions.md "No 500 where the outcome is
      // decided"), then the TransactWriteItems. The invoice's first payment has no predecessor: 3.
      roundTripBudget: () => 4,
      wcuBudget: REVERSAL_WCU_BUDGET,
    },
    {
      // docs/sending-invoices.md: the send commits the header's `queued` and the mail job in one transaction; the
      // mailer (PDF, MIME, SES) works later and is not on the request's path. One invoice per worker: concurrent
      // sends of one invoice rewrite one header and may conflict (each then re-reads).
      name: 'send invoice (enqueue)',
      make: (_i, worker) => sendInvoice(keys.writer, seeded.wInvoices[worker % seeded.wInvoices.length]!),
      expected: 200,
      cpuBudgetMs: 2,
      // One BatchGetItem (header, body, idempotency record), one TransactWriteItems (header Update, job Put, record).
      roundTripBudget: () => 2,
    },
  ];
};
