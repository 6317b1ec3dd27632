/**
 * Seeding (never timed): the accounts; the history account's payments through the API, then the payments around
 * them written directly in the small table (1,000 payments) and in a copy of it grown to 50,000; and through the API
 * the history account's clients for the client list, the writer account's invoices to pay and payments to reverse,
 * one invoice per payer account, and the pages-by-bytes account's payments on invoices of long items.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { localClient } from '../infra/local/dynamodb-local.ts';
import { addDays, type CalendarDate, fromEpochSeconds, toEpochSeconds, toIsoDate } from '../shared/domain/dates.ts';
import { CHANNELS, type Channel } from '../shared/domain/payment-record.ts';
import { noTotals, type Totals, totalsShard } from '../shared/domain/period-totals.ts';
import { createAccount, updateAccount } from '../shared/store/accounts.ts';
import { paymentItem } from '../shared/store/items.ts';
import { dayTotalsItem } from '../shared/store/period-totals.ts';
import { createTableInput } from '../shared/store/table.ts';
import { CONCURRENCY, LARGE_TABLE, SIZES, SMALL_TABLE } from './config.ts';
import { type DeletionPool, deletionPool } from './deletion-pool.ts';
import { driveEvery } from './drive.ts';
import { log, timed } from './progress.ts';
import { batchWriteAll } from './replay.ts';
import {
  call,
  clientIdInvoice,
  longItemsInvoice,
  newClientInvoice,
  newClient as newClientRequest,
  payment,
  TODAY,
  WINDOW_END,
  WINDOW_START,
} from './requests.ts';
import { REVERSAL_INVOICES, reversalsPerInvoice } from './reversal-pool.ts';

type Client = DynamoDBDocumentClient;

/** The data seeding leaves for the phases. */
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
   * Payments to reverse: per invoice of the writer account (`REVERSAL_INVOICES` of them), its payment ids newest
   * first (`seedReversals`; handed out by bench/reversal-pool.ts).
   */
  reversalPool: number[][];
  /** What the delete rows delete, each once (bench/deletion-pool.ts). */
  deletable: { invoices: DeletionPool<string>; clients: DeletionPool<number> };
  /** The date of the payments the bench adds. */
  payDate: CalendarDate;
  /** An account with exclusive VAT at 7.5 % and its client (the VAT add-invoice row: docs/tax.md). */
  taxed: { key: string; clientId: number };
}

/**
 * The seeding's own client, without the runtime's timeouts (shared/store/dynamodb-client.ts): on a slow machine a
 * Scan page of the 50,000-payment table can take longer than their 1.5 s per request.
 */
export const seedingClient = (endpoint: string): Client =>
  DynamoDBDocumentClient.from(localClient(endpoint), { marshallOptions: { removeUndefinedValues: true } });
export type BenchAccount = Awaited<ReturnType<typeof createAccount>>;

export async function createAccounts() {
  const history = await createAccount({ name: 'Bench history' });
  const writer = await createAccount({ name: 'Bench writer' });
  const pages = await createAccount({ name: 'Bench pages by bytes' });
  const payers = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, k) => createAccount({ name: `Bench payer ${k}` })),
  );
  const soloPayer = await createAccount({ name: 'Bench payer alone' });
  const taxed = await createAccount({ name: 'Bench taxed' });
  // An e-mail and a tax id: what the e-invoice rows need (bench/phases/documents.ts; docs/e-invoice.md).
  const profile = { email: 'billing@bench-taxed.example', taxId: '12345678-0001' };
  await updateAccount(taxed.account.companyId, { vatMode: 'exclusive', vatRateUnits: 75_000, profile });
  return { history, writer, pages, payers, soloPayer, taxed };
}

async function countPayments(client: Client, tableName: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'entity = :payment',
        ExpressionAttributeValues: { ':payment': 'payment' },
        Select: 'COUNT',
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

/** Copies every item of `from` into `to`; returns how many items, and how many of them are payments. */
async function copyTable(client: Client, from: string, to: string): Promise<{ items: number; payments: number }> {
  const items: { table: string; item: Record<string, unknown> }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: from, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    for (const item of page.Items ?? []) items.push({ table: to, item });
    start = page.LastEvaluatedKey;
  } while (start);
  await batchWriteAll(client, items, 4);
  return { items: items.length, payments: items.filter(({ item }) => item.entity === 'payment').length };
}

/**
 * The large table: the small one's key schema and indexes, without its stream and its TTL. Nothing writes it after
 * the seeding and neither changes a read; but DynamoDB Local wrote a second table with a stream 2–4 × more slowly
 * than the first.
 */
async function createReadOnlyTable(endpoint: string, tableName: string): Promise<void> {
  const { StreamSpecification: _stream, ...definition } = createTableInput(tableName);
  const client = localClient(endpoint);
  try {
    await client.send(new CreateTableCommand(definition));
  } finally {
    client.destroy();
  }
}

interface InvoiceRef {
  referenceCode: string;
  invoiceId: number;
  clientId: number;
  /** The token of its hosted page (the last part of `hosted_url`). */
  hostedToken: string;
}

/** Payment items written directly (BatchWriteItem), shaped by the store's own item builder. */
function syntheticPayments(
  count: number,
  companyOf: (i: number) => number,
  dateOf: (i: number) => CalendarDate,
  invoiceOf: (i: number) => InvoiceRef,
  firstId: number,
) {
  const now = '2025-01-01 00:00:00';
  return Array.from({ length: count }, (_, i) => {
    const invoice = invoiceOf(i);
    return {
      table: '',
      item: paymentItem({
        id: firstId + i,
        companyId: companyOf(i),
        clientId: invoice.clientId,
        invoiceId: invoice.invoiceId,
        referenceCode: invoice.referenceCode,
        amountKobo: 100_00,
        currency: 'NGN',
        transactionDate: toEpochSeconds(dateOf(i)),
        channel: 'Cash',
        createdAt: now,
        recordedId: ulid(),
        // Counted in its day's totals (written beside it by `dayTotalsRows`), as the API's payments are.
        inTotals: true,
      }),
    };
  });
}

type Seed = { table: string; item: Record<string, unknown> };

/**
 * The day-totals rows (shared/store/period-totals.ts) of payments written directly: what the payments' own
 * transactions would have ADDed, one row per account, day and shard, for `table`. The rows must not meet a row
 * the API wrote (they would replace it): the bench's direct payments are on days and accounts the API's are not.
 */
export function dayTotalsRows(table: string, payments: readonly Seed[]): Seed[] {
  const rows = new Map<string, { companyId: number; day: string; shard: number; totals: Totals }>();
  for (const { item } of payments) {
    const companyId = Number(item.company_id);
    const day = toIsoDate(fromEpochSeconds(Number(item.transaction_date)));
    const shard = totalsShard(Number(item.payment_id));
    const key = `${companyId}|${day}|${shard}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { companyId, day, shard, totals: noTotals() }));
    const amount = Number(item.amount);
    const channel = CHANNELS.find((c) => c === item.channel) as Channel;
    row.totals.count += 1;
    row.totals.totalKobo += amount;
    row.totals.byChannelKobo[channel] += amount;
  }
  return [...rows.values()].map((r) => ({ table, item: dayTotalsItem(r.companyId, r.day, r.shard, r.totals) }));
}

const outsideWindow = (i: number): CalendarDate =>
  i % 2 === 0 ? addDays(WINDOW_START, -1 - (i % 700)) : addDays(WINDOW_END, 1 + (i % 100));

/**
 * The payments that fill `table` around the history account's in-window ones: `sameAccount.count` of that account
 * outside the window (on its invoices, ids from `sameAccount.firstId`), then `others.count` of other accounts.
 */
function fillerPayments(
  table: string,
  sameAccount: { count: number; companyId: number; invoices: InvoiceRef[]; firstId: number },
  others: { count: number; companyOf: (i: number) => number; dateOf: (i: number) => CalendarDate },
) {
  return [
    ...syntheticPayments(
      sameAccount.count,
      () => sameAccount.companyId,
      outsideWindow,
      (i) => sameAccount.invoices[i % sameAccount.invoices.length]!,
      sameAccount.firstId,
    ),
    ...syntheticPayments(
      others.count,
      others.companyOf,
      others.dateOf,
      () => ({ referenceCode: 'NOSUCHINVOICE0000000', invoiceId: 1, clientId: 1, hostedToken: '' }),
      1,
    ),
  ].map((p) => ({ ...p, table }));
}

/** A new client of the account of `key`, made by its first invoice: the client's id. */
export async function newClient(port: number, key: string): Promise<number> {
  const first = await call(port, newClientInvoice(key), 201);
  return Number(first.json.data.client.id ?? first.json.data.client_id);
}

/** History account: invoices and in-window payments through the API (real item shapes; doubles as warm-up). */
async function seedHistoryAccount(port: number, key: string): Promise<InvoiceRef[]> {
  const clientId = await newClient(port, key);
  const invoices: InvoiceRef[] = [];
  await driveEvery(SIZES.historyInvoices, CONCURRENCY, async (i) => {
    const created = await call(port, clientIdInvoice(key, clientId), 201);
    invoices[i] = {
      referenceCode: created.json.data.reference_code,
      invoiceId: Number(created.json.data.id),
      clientId,
      hostedToken: new URL(created.json.data.hosted_url).pathname.split('/')[2]!,
    };
    return created.ms;
  });
  await driveEvery(invoices.length, CONCURRENCY, async (i) => {
    const date = addDays(WINDOW_START, i % 91);
    return (await call(port, payment(key, invoices[i]!.referenceCode, date), 201)).ms;
  });
  return invoices;
}

/** Payments in the small table once seeded: the history account's 120 in its window and 880 written directly. */
const SMALL_PAYMENTS = 1000;

/**
 * The rest of the small table's 1,000: the same account outside the window, and other accounts, with their day
 * totals. Returns the count and the payments written (the large table's totals count them too).
 */
async function seedSmallTable(
  client: Client,
  companyId: number,
  invoices: InvoiceRef[],
): Promise<{ count: number; written: Seed[] }> {
  const sameOutsideSmall = 380;
  const othersSmall = SMALL_PAYMENTS - invoices.length - sameOutsideSmall;
  const smallSeed = fillerPayments(
    SMALL_TABLE,
    { count: sameOutsideSmall, companyId, invoices, firstId: 1_000_000 },
    { count: othersSmall, companyOf: (i) => 2_000_000 + (i % 200), dateOf: (i) => addDays(WINDOW_START, i % 200) },
  );
  await batchWriteAll(client, [...smallSeed, ...dayTotalsRows(SMALL_TABLE, smallSeed)], 4);
  return { count: await countPayments(client, SMALL_TABLE), written: smallSeed };
}

/** What the large table adds to the copy of the small one: 49,000 payments (1,000 quick), half of them the history account's. */
const largeExtra = () => {
  const extra = SIZES.largeTablePayments - SMALL_PAYMENTS;
  return { sameAccount: Math.floor(extra / 2), others: extra - Math.floor(extra / 2) };
};

/**
 * The large table and its other accounts' payments with their day totals, written while the small table is filled and
 * copied: they depend on nothing seeded (their accounts are not the small table's). Nothing reads the table before
 * the scale phase.
 */
function startLargeTable(client: Client, endpoint: string) {
  const started = performance.now();
  const created = createReadOnlyTable(endpoint, LARGE_TABLE);
  const written = (async () => {
    await created;
    const others = syntheticPayments(
      largeExtra().others,
      (i) => 3_000_000 + (i % 500),
      (i) => addDays(WINDOW_START, (i % 400) - 100),
      () => ({ referenceCode: 'NOSUCHINVOICE0000000', invoiceId: 1, clientId: 1, hostedToken: '' }),
      1,
    ).map((p) => ({ ...p, table: LARGE_TABLE }));
    const totals = dayTotalsRows(LARGE_TABLE, others);
    await batchWriteAll(client, [...others, ...totals], 4);
    return { payments: others.length, totalsRows: totals.length };
  })();
  created.catch(() => undefined); // both awaited by `seedTables`; a failure surfaces there
  written.catch(() => undefined);
  return { started, created, written };
}

/**
 * The rest of the large table: a copy of the small one, and the history account's payments outside the window. Its
 * day-totals rows replace the copied rows of the small table's direct payments, counting those and the new ones (the
 * same account's payments of both share days and shards): written after the copy.
 */
async function completeLargeTable(
  client: Client,
  created: Promise<void>,
  small: { count: number; written: Seed[] },
  companyId: number,
  invoices: InvoiceRef[],
) {
  await created;
  const copied = await copyTable(client, SMALL_TABLE, LARGE_TABLE);
  const sameAccount = syntheticPayments(
    largeExtra().sameAccount,
    () => companyId,
    outsideWindow,
    (i) => invoices[i % invoices.length]!,
    2_000_000,
  ).map((p) => ({ ...p, table: LARGE_TABLE }));
  const totals = dayTotalsRows(LARGE_TABLE, [...small.written, ...sameAccount]);
  await batchWriteAll(client, [...sameAccount, ...totals], 4);
  return { copied, payments: sameAccount.length, totalsRows: totals.length };
}

/**
 * The history account's payments in both tables; records `results.seed` once the large table is written. Returns the
 * small table's figures, and the large table's count as a promise: it is written while the caller seeds the rest.
 */
export async function seedTables(
  client: Client,
  endpoint: string,
  port: number,
  historyAccount: BenchAccount,
  results: Record<string, unknown>,
) {
  const companyId = historyAccount.account.companyId;
  const hInvoices = await timed('history account', () => seedHistoryAccount(port, historyAccount.secretKey));
  // Not before: DynamoDB Local's first seconds are its JIT's, and the runtime's requests have 1.5 s each.
  const largeStarted = startLargeTable(client, endpoint);
  const inWindow = hInvoices.length;
  const small = await timed('small table', () => seedSmallTable(client, companyId, hInvoices));
  const smallCount = small.count;
  log(
    `  ${SMALL_TABLE}: ${smallCount} payments (${inWindow} of the history account in its window), with their day totals`,
  );
  const large = Promise.all([
    completeLargeTable(client, largeStarted.created, small, companyId, hInvoices),
    largeStarted.written,
  ]).then(([rest, others]) => {
    // What was written, counted: batchWriteAll fails unless every item was processed (a Scan of the 50,000 took 10 s).
    const payments = rest.copied.payments + rest.payments + others.payments;
    const seedMs = Math.round(performance.now() - largeStarted.started);
    const totalsRows = rest.totalsRows + others.totalsRows;
    log(
      `  ${LARGE_TABLE}: ${payments} payments (copied ${rest.copied.items} items, BatchWriteItem ${rest.payments + others.payments} payments and ${totalsRows} day-totals rows in ${(seedMs / 1000).toFixed(1)} s, beside the other seeding)`,
    );
    results.seed = {
      smallTable: { payments: smallCount, inWindow },
      largeTable: { payments, dayTotalsRows: totalsRows },
      largeSeedMs: seedMs,
    };
    return payments;
  });
  large.catch(() => undefined);
  return {
    smallCount,
    largeCount: large,
    hInvoice: hInvoices[0]!.referenceCode,
    hClientId: hInvoices[0]!.clientId,
    hToken: hInvoices[0]!.hostedToken,
  };
}

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
  const bigInvoice = async (key: string, clientId: number) =>
    String((await call(port, clientIdInvoice(key, clientId, '900,000,000.00'), 201)).json.data.reference_code);
  const payerInvoice = async (payer: BenchAccount) => ({
    key: payer.secretKey,
    ref: await bigInvoice(payer.secretKey, await newClient(port, payer.secretKey)),
  });
  const workers = Array.from({ length: CONCURRENCY }, (_, k) => k);
  const [wInvoices, payerInvoices, soloInvoices, wClients] = await Promise.all([
    Promise.all(workers.map(() => bigInvoice(wKey, wClientId))),
    Promise.all(payers.map(payerInvoice)),
    Promise.all(workers.map(() => payerInvoice(soloPayer))),
    Promise.all(workers.map(async () => Number((await call(port, newClientRequest(wKey), 201)).json.data.id))),
  ]);
  const payDate = addDays(TODAY, -1);
  const reversalPool = await seedReversals(port, wKey, wClientId, payDate);
  const deletable = deletionPools(port, wKey, wClientId);
  return { wClientId, wClients, wInvoices, payerInvoices, soloInvoices, payDate, reversalPool, deletable };
}

/** The VAT account's client, made by its first invoice (the VAT add-invoice row adds the rest). */
export async function seedTaxed(port: number, taxed: BenchAccount): Promise<Pick<Seeded, 'taxed'>> {
  return { taxed: { key: taxed.secretKey, clientId: await newClient(port, taxed.secretKey) } };
}

/**
 * The delete rows' pools (bench/deletion-pool.ts): unpaid invoices of the writer's client, and clients without
 * invoices, supplied by the rows that create them and topped up through the API with the same requests.
 */
function deletionPools(port: number, wKey: string, wClientId: number): Seeded['deletable'] {
  const invoices = deletionPool(
    'invoices to delete',
    (body) => String(JSON.parse(body).data.reference_code),
    async () => {
      const answer = await call(port, clientIdInvoice(wKey, wClientId), 201);
      return { ms: answer.ms, made: String(answer.json.data.reference_code) };
    },
  );
  const clients = deletionPool(
    'clients to delete',
    (body) => Number(JSON.parse(body).data.id),
    async () => {
      const answer = await call(port, newClientRequest(wKey), 201);
      return { ms: answer.ms, made: Number(answer.json.data.id) };
    },
  );
  return { invoices, clients };
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
 * Payments to reverse (the reverse-payment row): `REVERSAL_INVOICES` invoices of the writer account, each with its own
 * payments of 1.00 recorded through the API one after another (the invoices in parallel), so each payment names the
 * one before it (`previous_payment_id`). Returns each invoice's payment ids newest first: reversing the newest
 * non-reversed payment reads one earlier payment (its predecessor, not reversed); reversing oldest first would walk
 * back over every payment already reversed (shared/store/payment-reversals.ts `reversalKeys`).
 */
export async function seedReversals(port: number, wKey: string, wClientId: number, payDate: CalendarDate) {
  const perInvoice = reversalsPerInvoice(reversalsNeeded());
  const started = performance.now();
  const invoices = await Promise.all(
    Array.from({ length: REVERSAL_INVOICES }, async () =>
      String((await call(port, clientIdInvoice(wKey, wClientId, '900,000,000.00'), 201)).json.data.reference_code),
    ),
  );
  const pool = await Promise.all(
    invoices.map(async (ref) => {
      const ids: number[] = [];
      for (let n = 0; n < perInvoice; n++)
        ids.push(Number((await call(port, payment(wKey, ref, payDate), 201)).json.data.id));
      return ids.reverse();
    }),
  );
  log(
    `  reversals: ${REVERSAL_INVOICES} × ${perInvoice} payments to reverse (${reversalsNeeded()} needed) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return pool;
}
