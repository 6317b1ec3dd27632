/**
 * Bank transfers into virtual accounts (docs/bank-transfers.md): a transfer matched to one open invoice and to 50, and
 * the credit refund route. The bench has no Paystack, so the transfer's recording (services/record-transfer.ts) runs
 * in this process on the bench's DynamoDB Local as the event processing calls it after Paystack's verify: what is
 * measured is our side, its time and its DynamoDB round trips and transactions. The one-invoice transfers go to one
 * client whose history grows by one paid invoice each, so a cost that grew with the client's history would show. The
 * refund route is sent over HTTP to the local runtime, on credit a paid invoice's credit note left (paid back by hand).
 */

import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { PAYMENTS_PER_STEP } from '../../shared/domain/transfer-recording.ts';
import { recordTransfer, type TransferRequest } from '../../shared/services/record-transfer.ts';
import { createAccount } from '../../shared/store/accounts.ts';
import { figureBudgets } from '../budgets.ts';
import type { BenchContext } from '../context.ts';
import { log } from '../progress.ts';
import { call, type RequestSpec } from '../requests.ts';
import * as stats from '../stats.ts';

/** One-invoice transfers (each on a new invoice of the same client), 50-invoice transfers, and credit refunds. */
const ONE_INVOICE_TRANSFERS = 30;
const FIFTY = 50;
const FIFTY_INVOICE_TRANSFERS = 3;
const REFUNDS = 50;
/** ₦100.00 an invoice. */
const INVOICE_KOBO = 10_000;

const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

let transferCount = 0;

/** A transfer as Paystack's verify reports it (no narration: matched by exact amount or oldest due). */
const transferOf = (companyId: number, clientId: number, amountKobo: number): TransferRequest => {
  transferCount += 1;
  const reference = `bench-transfer-${Date.now()}-${transferCount}`;
  return {
    companyId,
    clientId,
    charge: {
      reference,
      status: 'success',
      amountKobo,
      currency: 'NGN',
      transactionId: String(9_000_000 + transferCount),
      channel: 'dedicated_nuban',
      gatewayResponse: 'Approved',
      message: 'Approved',
      paidAt: null,
      feesKobo: 0,
      transfer: {
        customerCode: 'CUS_bench',
        receiverAccountNumber: '9930000001',
        senderName: 'Bench Sender',
        senderBank: 'Access Bank',
        senderAccountNumber: '0123456789',
        narration: '',
      },
    },
  };
};

interface Api {
  port: number;
  key: string;
  send(path: string, body: unknown, expected: number): ReturnType<typeof call>;
}

async function newClient(api: Api, n: number): Promise<number> {
  const body = {
    first_name: 'Bench',
    last_name: `Payer ${n}`,
    email: `payer${n}@example.com`,
    phone: '+2348012345678',
  };
  return Number((await api.send('/clients', body, 201)).json.data.id);
}

async function newInvoice(api: Api, clientId: number, naira: string, day: number): Promise<string> {
  const body = {
    client_id: clientId,
    fee_bearer: 'account',
    due_date: `12/${String(1 + (day % 28)).padStart(2, '0')}/2031`,
    items: [{ item: 'Supplies', description: 'One lot', unit_cost: naira, quantity: '1' }],
  };
  return String((await api.send('/invoices', body, 201)).json.data.reference_code);
}

/** One recording's time, its DynamoDB round trips and its TransactWriteItems. */
async function measured(request: TransferRequest) {
  let roundTrips = 0;
  let transactions = 0;
  const remove = dynamoHooks.add({
    before: (dynamoCall) => {
      roundTrips++;
      if (dynamoCall.command === 'TransactWriteItemsCommand') transactions++;
    },
  });
  const started = performance.now();
  try {
    const result = await recordTransfer(request);
    return { ms: performance.now() - started, roundTrips, transactions, payments: result.paymentIds.length };
  } finally {
    remove();
  }
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(
    `Bank transfers: ${ONE_INVOICE_TRANSFERS} matched to one open invoice, ${FIFTY_INVOICE_TRANSFERS} to ${FIFTY}, ` +
      `${REFUNDS} credit refunds at c=1`,
  );
  const created = await createAccount({ name: 'Bench transfers' });
  const { companyId } = created.account;
  const api: Api = {
    port: ctx.small.port,
    key: created.secretKey,
    send: (path, body, expected) => call(ctx.small.port, { path, headers: auth(created.secretKey), body }, expected),
  };
  const one = await oneInvoiceTransfers(api, companyId);
  const fifty = await fiftyInvoiceTransfers(api, companyId);
  const refundMs = await creditRefunds(api);
  report(ctx, { one, fifty, refundMs });
}

async function oneInvoiceTransfers(api: Api, companyId: number) {
  const clientId = await newClient(api, 1);
  const rounds = [];
  for (let i = 0; i < ONE_INVOICE_TRANSFERS; i++) {
    await newInvoice(api, clientId, '100.00', i);
    rounds.push(await measured(transferOf(companyId, clientId, INVOICE_KOBO)));
  }
  return rounds;
}

async function fiftyInvoiceTransfers(api: Api, companyId: number) {
  const clientId = await newClient(api, 2);
  const rounds = [];
  for (let round = 0; round < FIFTY_INVOICE_TRANSFERS; round++) {
    for (let i = 0; i < FIFTY; i++) await newInvoice(api, clientId, '100.00', i);
    rounds.push(await measured(transferOf(companyId, clientId, FIFTY * INVOICE_KOBO)));
  }
  return rounds;
}

/** Latencies (ms) of `POST /clients/{id}/credit/refund` of ₦1.00 each, on credit a credit note left. */
async function creditRefunds(api: Api): Promise<number[]> {
  const clientId = await newClient(api, 3);
  const referenceCode = await newInvoice(api, clientId, '100000.00', 0);
  const now = new Date();
  const today = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCDate()).padStart(2, '0')}/${now.getUTCFullYear()}`;
  const paid = { reference_code: referenceCode, date: today, amount: '100000.00', channel: 'Cash' };
  await api.send('/payments', paid, 201);
  await api.send(`/invoices/${referenceCode}/credit-notes`, { reason: 'Returned', amount: '100000.00' }, 201);
  const spec: RequestSpec = {
    path: `/clients/${clientId}/credit/refund`,
    headers: auth(api.key),
    body: { amount: '1.00' },
  };
  const samples: number[] = [];
  for (let i = 0; i < REFUNDS; i++) {
    const started = performance.now();
    await call(api.port, spec, 200);
    samples.push(performance.now() - started);
  }
  return samples;
}

interface Measured {
  one: Awaited<ReturnType<typeof measured>>[];
  fifty: Awaited<ReturnType<typeof measured>>[];
  refundMs: number[];
}

function report(ctx: BenchContext, m: Measured) {
  const p50 = (samples: number[]) => Math.round(stats.median(samples) * 10) / 10;
  const most = (samples: number[]) => Math.max(...samples);
  const half = Math.floor(m.one.length / 2);
  const figures = {
    oneInvoiceP50Ms: p50(m.one.map((r) => r.ms)),
    oneInvoiceRoundTripsMost: most(m.one.map((r) => r.roundTrips)),
    // The client's history doubled between the halves: their round trips are the same.
    oneInvoiceRoundTripsLaterMinusEarlier:
      most(m.one.slice(half).map((r) => r.roundTrips)) - most(m.one.slice(0, half).map((r) => r.roundTrips)),
    fiftyInvoicesP50Ms: p50(m.fifty.map((r) => r.ms)),
    fiftyInvoicesRoundTripsMost: most(m.fifty.map((r) => r.roundTrips)),
    fiftyInvoicesTransactionsMost: most(m.fifty.map((r) => r.transactions)),
    fiftyInvoicesPaymentsLeast: Math.min(...m.fifty.map((r) => r.payments)),
    refundCreditP50Ms: p50(m.refundMs),
  };
  ctx.results.transfers = figures;
  log(`  ${JSON.stringify(figures)}`);
  ctx.budgets.push(...figureBudgets(TRANSFER_BUDGETS, figures));
}

/** Steps of a transfer settling 50 invoices: 8 invoices a transaction. */
const FIFTY_STEPS = Math.ceil(FIFTY / PAYMENTS_PER_STEP);

/** The phase's budgets and why each holds (docs/performance.md "Budgets"). */
export const TRANSFER_BUDGETS = [
  // One step: the Query of the client's open invoices, one BatchGetItem (transfer, account, credit, the invoice and its
  // latest payment, the id block when it refills) and one transaction of ~16 items: 3 round trips, like add payment
  // with its Query. 25 ms measured; the limit 1.6 ×.
  {
    name: 'transfer to 1 invoice p50 c=1',
    figure: 'oneInvoiceP50Ms',
    limit: 40,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
  {
    name: 'transfer to 1 invoice: round trips',
    figure: 'oneInvoiceRoundTripsMost',
    limit: 3,
    comparator: '<=',
    unit: '',
    timed: false,
  },
  // The client's paid invoices are not read: its open invoices are (one Query of open-invoice items).
  {
    name: 'transfer to 1 invoice: round trips with twice the client history, more than before',
    figure: 'oneInvoiceRoundTripsLaterMinusEarlier',
    limit: 0,
    comparator: '<=',
    unit: '',
    timed: false,
  },
  // ⌈50 / 8⌉ = 7 steps, each one transaction of up to 8 × 11 + 6 items.
  {
    name: 'transfer to 50 invoices: transactions',
    figure: 'fiftyInvoicesTransactionsMost',
    limit: FIFTY_STEPS,
    comparator: '<=',
    unit: '',
    timed: false,
  },
  {
    name: 'transfer to 50 invoices: round trips',
    figure: 'fiftyInvoicesRoundTripsMost',
    // Each step a Query, a BatchGetItem and its transaction; the first step's read (transfer, account, credit and 2
    // keys for each of 50 invoices: 103 keys) takes two BatchGetItems, at most 100 keys each. 22 measured.
    limit: 3 * FIFTY_STEPS + 1,
    comparator: '<=',
    unit: '',
    timed: false,
  },
  {
    name: 'transfer to 50 invoices: payments',
    figure: 'fiftyInvoicesPaymentsLeast',
    limit: FIFTY,
    comparator: '==',
    unit: '',
    timed: false,
  },
  // 7 steps of 3 round trips whose transactions hold ~90 items: DynamoDB Local applies a transaction's items one by one
  // (~1.3 ms each here). 800 ms measured; the limit 1.5 ×.
  {
    name: 'transfer to 50 invoices p50 c=1',
    figure: 'fiftyInvoicesP50Ms',
    limit: 1_200,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
  // One BatchGetItem (client, credit, virtual account) and one transaction of four items (balance, line, listing item,
  // event): like a payment's reversal, without the invoice. 14.4 ms measured; the limit 1.7 ×.
  {
    name: 'refund client credit p50 c=1',
    figure: 'refundCreditP50Ms',
    limit: 25,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
] as const;
