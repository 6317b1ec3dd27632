/**
 * The endpoints measured against their floor: one entry per row of the report. A row such as "add payment (with
 * events)" is one more entry whose `make` pays with an account that has a webhook endpoint set: the floor replays
 * whatever DynamoDB requests the captured request made (an outbox write included), so the row shows what events
 * cost beyond the floor.
 */
import type { RatioBudgets } from './budgets.ts';
import type { CaptureFigures } from './capture.ts';
import { SIZES } from './config.ts';
import {
  clientIdInvoice,
  clientUpdate,
  creditNote,
  deletion,
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
  sendStatement,
  setReminders,
  taxedInvoice,
  taxReport,
} from './requests.ts';
import { reversalPicker } from './reversal-pool.ts';
import type { Seeded } from './seeding.ts';
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
  /** Our CPU per request (runtime minus floor, concurrency 1), ms on the reference machine (`CPU_MS`). */
  cpuBudgetMs: number;
  roundTripBudget: (captured: CaptureFigures) => number;
  wcuBudget?: number;
  /** Ratios to the floor, where this row's differ from the defaults (see `DEFAULT_RATIO_BUDGETS`). */
  ratioBudgets?: Partial<RatioBudgets>;
  /** What the row needs before it sends `requests` more requests (a delete row's pool), never timed. */
  before?: (requests: number) => Promise<void>;
}

/**
 * The requests an endpoint row sends after the warm-up phase: its captures and the endpoint's side of every block at
 * c=1 and c=8 (each block calls `make` once per request; the floor's requests are made by `floorMake`).
 */
export const rowRequests = (): number => SIZES.captures + SIZES.blocks * (SIZES.perBlock1 + SIZES.perBlock8);

/**
 * Our CPU per request (runtime minus floor, c=1) on the reference machine (bench/calibration.ts; another machine's
 * budget is this × its factor): a write or a single-item read 3 ms, and a taxed line 0.02 ms more (validation, its
 * tax arithmetic and its share of the invoice's item and answer: 100 lines measured 3.97 ms, add invoice
 * (client_id)'s 2 lines 2.14); the statement send 7 ms (it builds the period's statement to refuse
 * `statement_too_large` before writing: 137 RCU of the writer's client's rows there, 5.5 ms measured); the client list
 * of 100 4.5 ms; the invoice history page of 100 10.8 ms (a page's CPU goes with its bytes, as the pages-by-bytes
 * phase measures, and an invoice's view now carries its number, issue date and tax split, each item its discount, VAT
 * category and net: 9.8 ms measured); the payment history page 10.8 ms too (each payment carries its invoice's view,
 * grown the same way, and the page its summary: 8.0 and 9.2 ms in two idle runs at a factor of 0.94)
 * (docs/performance.md "Budgets").
 */
export const CPU_MS = {
  request: 3,
  taxedLine: 0.02,
  statementSend: 7,
  clientList: 4.5,
  invoiceHistoryPage: 10.8,
  paymentHistoryPage: 10.8,
} as const;

/** The taxed invoice row's lines (bench/requests.ts `taxedInvoice`) and the client list's page. */
const TAXED_LINES = 100;
const CLIENT_PAGE = 100;

export const DEFAULT_RATIO_BUDGETS: RatioBudgets = { p50: 1.15, p99: 1.25, throughput: 0.85, tailP99: 1.3 };

/**
 * Single-item reads: one ~2 ms DynamoDB Local round trip, so our fixed per-request work (middy, routing,
 * authentication cache, the view, the log line: 0.2–0.5 ms of CPU) is a larger share of the latency and of
 * the machine than for a write (docs/performance.md "Budgets"). Their absolute budgets (CPU, one round trip)
 * are the ones of the writes.
 */
const SINGLE_ITEM_READ: Partial<RatioBudgets> = { p50: 1.25, p99: 1.6, throughput: 0.7, tailP99: 1.5 };

/**
 * A payment's write units as DynamoDB Local reports them (with the index and the idempotency record). Its transaction
 * has 9 items: the invoice header, the payment, the day-totals row, the receivables' aging row, client aging row and
 * ledger line (docs/data-design.md "Receivables"), the receipt beside the hosted page's link (every invoice has one),
 * the `payment.recorded` event and the idempotency record. DynamoDB Local reports 18 (table 12, GSI1 6) in every
 * captured request (14, table 8, when first budgeted, before the receipt): 20 is one more item's headroom. DynamoDB Local under-reports
 * transactions (not even additively), so this guards what it reports; what AWS bills is computed in docs/cost.md.
 */
const PAYMENT_WCU_BUDGET = 20;

/**
 * A reversal's, reported the same way. Its transaction has the payment's 8 items; it updates the payment item (which
 * the payment's transaction puts) and moves the header's wake-index key (GSI2). DynamoDB Local reports 26 for it
 * (table 14, indexes 12) in every captured request, not the payment's 14: 28 is what it reports plus one item's
 * headroom (2), as for the payment.
 */
const REVERSAL_WCU_BUDGET = 28;

/**
 * The tax report's throughput at c=8: its block of 100 lasts 0.64 s (the floor's 157/s), so the 8 workers' ramp and
 * one pause of DynamoDB Local move a block (0.66–0.94 in one run, its median 0.732 while our CPU at c=8, 2.57 ms, was
 * within budget: with it the CPU derivation gives 0.78). 0.72 is the derived 0.77 less that scatter of the median.
 */
const TAX_REPORT_RATIOS: Partial<RatioBudgets> = { throughput: 0.72 };

type RowKeys = { history: string; writer: string };

const invoicePaymentAndHistoryRows = (keys: RowKeys, seeded: Seeded): EndpointDef[] => {
  return [
    {
      // The three add invoice rows and the credit note take the account's next gapless number: its requests take turns
      // in the runtime (shared/services/one-at-a-time.ts), and the floor's replays take theirs (bench/replay.ts
      // `numberTurn`), so at c=8 both sides wait in line for the same counter.
      name: 'add invoice (new client)',
      make: () => newClientInvoice(keys.writer),
      expected: 201,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 2,
    },
    {
      // Its invoices are what the delete invoice row deletes (bench/deletion-pool.ts): each answer is kept.
      name: 'add invoice (client_id)',
      make: () => ({ ...clientIdInvoice(keys.writer, seeded.wClientId), onAnswer: seeded.deletable.invoices.keep }),
      expected: 201,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 2,
    },
    {
      // docs/tax.md: 100 taxed lines (standard, zero-rated, exempt, discounts) on an account with exclusive VAT.
      name: 'add invoice (VAT, 100 lines)',
      make: () => taxedInvoice(seeded.taxed.key, seeded.taxed.clientId),
      expected: 201,
      cpuBudgetMs: CPU_MS.request + TAXED_LINES * CPU_MS.taxedLine,
      roundTripBudget: () => 2,
    },
    {
      name: 'add payment',
      make: (_i, worker) => payment(keys.writer, seeded.wInvoices[worker % seeded.wInvoices.length]!, seeded.payDate),
      expected: 201,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 2,
      wcuBudget: PAYMENT_WCU_BUDGET,
    },
    {
      name: 'history page of 100',
      make: () => history(keys.history),
      expected: 200,
      cpuBudgetMs: CPU_MS.paymentHistoryPage,
      roundTripBudget: (c) => stats.historyRoundTripBudget(c.keysRead),
    },
  ];
};

const readRows = (keys: RowKeys, seeded: Seeded): EndpointDef[] => {
  return [
    {
      // docs/tax.md "Tax report": the VAT account's last 366 days (bench/tax-seeding.ts: one row a day). One Query:
      // 366 rows of ~200 bytes are ~75 KB, one page (1 MB); its CPU is summing 366 small rows and one small view.
      name: 'tax report (year)',
      ratioBudgets: TAX_REPORT_RATIOS,
      make: () => taxReport(seeded.taxed.key),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 1,
    },
    // Invoice and client routes (docs/api.md "Invoices: read, list, delete", "Clients"): a single item is one round trip; listings are as history (a Query, then batched reads).
    {
      name: 'get invoice',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => read(keys.history, `/invoices/${seeded.hInvoice}`),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 1,
    },
    {
      name: 'get payment (latest)',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => read(keys.history, `/payments/${seeded.hInvoice}`),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 1,
    },
    {
      // The hosted invoice page (docs/sending-invoices.md): no key; the link's partition's Query, then one BatchGetItem
      // of the invoice, its account and the client's virtual account (the link names the client). Rendering the page is a few hundred microseconds (the render phase measures it).
      name: 'hosted invoice page',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => publicPage(`/i/${seeded.hToken}`),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 2,
    },
    {
      name: 'invoice history page of 100',
      make: () => invoiceHistory(keys.history),
      expected: 200,
      cpuBudgetMs: CPU_MS.invoiceHistoryPage,
      // One Query, then the invoices' headers and bodies 50 invoices (100 keys) per BatchGetItem.
      roundTripBudget: () => 1 + Math.ceil(100 / 50),
    },
  ];
};

const clientRows = (keys: RowKeys, seeded: Seeded): EndpointDef[] => {
  return [
    {
      name: 'get client',
      ratioBudgets: SINGLE_ITEM_READ,
      make: () => read(keys.history, `/clients/${seeded.hClientId}`),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 1,
    },
    {
      name: 'list clients page of 100',
      make: () => read(keys.history, `/clients?limit=${CLIENT_PAGE}`),
      expected: 200,
      cpuBudgetMs: CPU_MS.clientList,
      // The Query of the page, then each client's credit balance and virtual account (every client answer carries
      // both: docs/bank-transfers.md), 2 keys a client, 100 keys per BatchGetItem, the batches sent together.
      roundTripBudget: () => 1 + Math.ceil((2 * CLIENT_PAGE) / 100),
    },
    {
      // Its clients are what the delete client row deletes (bench/deletion-pool.ts): each answer is kept.
      name: 'add client',
      make: () => ({ ...newClient(keys.writer), onAnswer: seeded.deletable.clients.keep }),
      expected: 201,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 2,
    },
    {
      // One client per worker: concurrent updates of one client conflict by design (its version pins each update).
      name: 'update client',
      make: (_i, worker) => clientUpdate(keys.writer, seeded.wClients[worker % seeded.wClients.length]!),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 2,
    },
  ];
};

/**
 * docs/api.md "Invoices: read, list, delete", "Clients": each request deletes an invoice or a client never deleted
 * (bench/deletion-pool.ts); the floor's requests carry the same headers and take none (it replays the captured calls,
 * whatever the path). One read and one transaction each.
 */
const deleteRows = (keys: RowKeys, seeded: Seeded): EndpointDef[] => {
  const { invoices, clients } = seeded.deletable;
  return [
    {
      name: 'delete invoice',
      make: () => deletion(keys.writer, `/invoices/${invoices.take()}`),
      floorMake: () => deletion(keys.writer, '/invoices/X'),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      // The Query of its credit notes (the void's tax entry nets them: docs/tax.md "Tax report"), the BatchGetItem of
      // the invoice, one TransactWriteItems.
      roundTripBudget: () => 3,
      before: (requests) => invoices.ensure(requests),
    },
    {
      name: 'delete client',
      make: () => deletion(keys.writer, `/clients/${clients.take()}`),
      floorMake: () => deletion(keys.writer, '/clients/0'),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
      roundTripBudget: () => 2,
      before: (requests) => clients.ensure(requests),
    },
  ];
};

const reversalAndSendRows = (keys: RowKeys, seeded: Seeded): EndpointDef[] => {
  // One picker for the row's whole run: every request (and every floor replay's body) takes a payment never reversed.
  const nextReversal = reversalPicker(seeded.reversalPool);
  return [
    {
      // docs/api.md "Reversing a payment". Each request reverses the newest not-yet-reversed payment of one of 8 invoices, and concurrent
      // requests reverse payments of different invoices (bench/reversal-pool.ts): concurrent reversals on one invoice
      // conflict by design (its header's version).
      name: 'reverse payment',
      make: (i, worker) => reversal(keys.writer, nextReversal(i, worker)),
      // The same body and headers (a fresh Idempotency-Key each): the floor replays the captured calls, whatever the id.
      floorMake: () => reversal(keys.writer, 0),
      expected: 200,
      cpuBudgetMs: CPU_MS.request,
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
      cpuBudgetMs: CPU_MS.request,
      // One BatchGetItem (header, body, idempotency record), one TransactWriteItems (header Update, job Put, record).
      roundTripBudget: () => 2,
    },
    {
      // docs/receivables.md "One client: the statement": the statement is read first (a period too long for one is refused with
      // nothing written), then the job is put; the mailer draws the PDF later. The writer's invoices' client.
      name: 'send statement (enqueue)',
      make: () => sendStatement(keys.writer, seeded.wClientId),
      expected: 200,
      cpuBudgetMs: CPU_MS.statementSend,
      // The client (GetItem), the statement (its aging rows, ledger lines, aging rows again: three Queries), one
      // BatchGetItem (client, idempotency record) and one TransactWriteItems (job Put, record).
      roundTripBudget: () => 6,
    },
  ];
};

/** docs/api.md "Reminders": pause (even requests) and resume an invoice's reminders, one invoice per worker. */
const reminderRows = (keys: RowKeys, seeded: Seeded): EndpointDef[] => [
  {
    name: 'pause/resume reminders',
    make: (i, worker) => setReminders(keys.writer, seeded.wInvoices[worker % seeded.wInvoices.length]!, i % 2 === 0),
    expected: 200,
    cpuBudgetMs: CPU_MS.request,
    // One BatchGetItem (header, body, idempotency record), one TransactWriteItems (header Update, record).
    roundTripBudget: () => 2,
  },
  {
    // docs/tax.md "Credit notes": 1.00 off one of the writer's 900,000,000.00 invoices per worker (never near the cap,
    // all of it off the amount due: no client credit). Concurrent requests credit different invoices, but every one
    // takes the account's next CN- number: in one process they take turns (services/one-at-a-time.ts), and so do the
    // floor's replays (bench/replay.ts `numberTurn`); across processes they conflict on its counter and decide again —
    // the price of gapless numbers, as for add invoice's.
    name: 'credit note',
    make: (_i, worker) => creditNote(keys.writer, seeded.wInvoices[worker % seeded.wInvoices.length]!),
    expected: 201,
    cpuBudgetMs: CPU_MS.request,
    // Three: a BatchGetItem of the invoice (its client names the credit balance to read: an invoice never changes
    // client), the decision's BatchGetItem (header, body, counter, credit balance, idempotency record), then one
    // TransactWriteItems (header, note, hosted line, counter, aging rows, ledger line, event, record).
    roundTripBudget: () => 3,
  },
];

/** The rows, in the order the report lists them. */
export const endpointDefs = (keys: RowKeys, seeded: Seeded): EndpointDef[] => [
  ...invoicePaymentAndHistoryRows(keys, seeded),
  ...readRows(keys, seeded),
  ...clientRows(keys, seeded),
  ...reversalAndSendRows(keys, seeded),
  ...reminderRows(keys, seeded),
  ...deleteRows(keys, seeded),
];
