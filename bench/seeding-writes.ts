/**
 * Seeding through the API (never timed): the history account's clients for the client list, the writer account's
 * invoices to pay and payments to reverse, one invoice per payer account, and the pages-by-bytes account's payments on
 * invoices of long items. The tables and the history account: bench/seeding.ts.
 */
import { addDays, type CalendarDate } from '../shared/domain/dates.ts';
import { CONCURRENCY, SIZES } from './config.ts';
import { seedDeletions } from './deletion-pool.ts';
import { driveEvery } from './drive.ts';
import { log } from './progress.ts';
import {
  call,
  clientIdInvoice,
  longItemsInvoice,
  newClient as newClientRequest,
  payment,
  TODAY,
  WINDOW_START,
} from './requests.ts';
import { type BenchAccount, newClient } from './seeding.ts';

/** Clients of the history account for the client list's page of 100 (its first client came with its invoices). */
export async function seedClients(port: number, key: string): Promise<void> {
  await driveEvery(SIZES.listedClients, CONCURRENCY, async () => (await call(port, newClientRequest(key), 201)).ms);
}

/**
 * Writer account: one client, invoices to pay (totals large enough never to be fully paid). Many tenants: one client
 * with one such invoice in each payer account, and as many clients with one invoice each in the lone payer's account.
 */
export async function seedWrites(port: number, writer: BenchAccount, payers: BenchAccount[], soloPayer: BenchAccount) {
  const wKey = writer.secretKey;
  const wClientId = await newClient(port, wKey);
  const wInvoices: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++)
    wInvoices.push(
      (await call(port, clientIdInvoice(wKey, wClientId, '900,000,000.00'), 201)).json.data.reference_code,
    );
  const payerInvoice = async (payer: BenchAccount) => {
    const clientId = await newClient(port, payer.secretKey);
    const big = await call(port, clientIdInvoice(payer.secretKey, clientId, '900,000,000.00'), 201);
    return { key: payer.secretKey, ref: big.json.data.reference_code as string };
  };
  const payerInvoices: { key: string; ref: string }[] = [];
  for (const payer of payers) payerInvoices.push(await payerInvoice(payer));
  const soloInvoices: { key: string; ref: string }[] = [];
  for (const _payer of payers) soloInvoices.push(await payerInvoice(soloPayer));
  const wClients: number[] = [];
  for (let i = 0; i < CONCURRENCY; i++) wClients.push((await call(port, newClientRequest(wKey), 201)).json.data.id);
  const payDate = addDays(TODAY, -1);
  const reversalPool = await seedReversals(port, wKey, wClientId, payDate);
  const deletable = await seedDeletions(port, wKey, wClientId);
  return { wClientId, wClients, wInvoices, payerInvoices, soloInvoices, payDate, reversalPool, deletable };
}

/** Pages-by-bytes account: each payment on its own invoice of long items (about 94 KB of response per payment). */
export async function seedPages(port: number, pKey: string): Promise<void> {
  const pClientId = await newClient(port, pKey);
  await driveEvery(SIZES.pageInvoices, CONCURRENCY, async (i) => {
    const invoice = await call(port, longItemsInvoice(pKey, pClientId, SIZES.pageItems), 201);
    return (await call(port, payment(pKey, invoice.json.data.reference_code, addDays(WINDOW_START, i % 91)), 201)).ms;
  });
}

/**
 * How many payments the reverse-payment row reverses in a run: its warm-up, captures and the endpoint's side of
 * every block at c=1 and c=8 (the floor's requests are made by the row's `floorMake`, which takes none).
 */
export const reversalsNeeded = (): number =>
  SIZES.warmup + SIZES.captures + SIZES.blocks * (SIZES.perBlock1 + SIZES.perBlock8);

/**
 * Payments to reverse (the reverse-payment row): `CONCURRENCY` invoices of the writer account, each with its own
 * payments of 1.00 recorded through the API one after another (the invoices in parallel), so each payment names the
 * one before it (`previous_payment_id`). Returns each invoice's payment ids newest first: reversing the newest
 * non-reversed payment reads one earlier payment (its predecessor, not reversed); reversing oldest first would walk
 * back over every payment already reversed (shared/store/payment-reversals.ts `reversalKeys`).
 */
export async function seedReversals(port: number, wKey: string, wClientId: number, payDate: CalendarDate) {
  // × 1.5: at c=8 each worker keeps one invoice for a block (the one it releases is the only free one), and workers
  // do not serve equal shares of a block; every block starts on the invoices with the most payments left.
  const perInvoice = Math.ceil((reversalsNeeded() * 1.5) / CONCURRENCY);
  const started = performance.now();
  const invoices: string[] = [];
  for (let k = 0; k < CONCURRENCY; k++)
    invoices.push((await call(port, clientIdInvoice(wKey, wClientId, '900,000,000.00'), 201)).json.data.reference_code);
  const pool = await Promise.all(
    invoices.map(async (ref) => {
      const ids: number[] = [];
      for (let n = 0; n < perInvoice; n++)
        ids.push(Number((await call(port, payment(wKey, ref, payDate), 201)).json.data.id));
      return ids.reverse();
    }),
  );
  log(
    `  reversals: ${CONCURRENCY} × ${perInvoice} payments to reverse (${reversalsNeeded()} needed) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return pool;
}
