/**
 * Seeding of the receivables phase (never timed): accounts with many open invoices, and a client with a long ledger,
 * written directly (BatchWriteItem) with the store's own item builders, as the API's transactions leave them —
 * headers, bodies, open-invoice items, aging rows (shard 0: DynamoDB Local never reports a conflict) and clients.
 */
import { addDays, toEpochSeconds, toIsoDate } from '../shared/domain/dates.ts';
import { generateHostedToken } from '../shared/domain/hosted-token.ts';
import { buildInvoice, type ClientRecord, newClient } from '../shared/domain/invoice.ts';
import { invoiceIssuedChange, type LedgerLine } from '../shared/domain/receivables.ts';
import { generateReferenceCode } from '../shared/domain/reference-code.ts';
import { createAccount } from '../shared/store/accounts.ts';
import { invoiceBodyItem, invoiceHeaderItem } from '../shared/store/invoice-items.ts';
import { hostedLinkItem } from '../shared/store/invoice-lookups.ts';
import { clientItem, paymentItem } from '../shared/store/items.ts';
import {
  agingRowItem,
  clientAgingRowItem,
  ledgerItem,
  openInvoiceItem,
  type RowAmounts,
} from '../shared/store/receivables.ts';
import { newUlid } from '../shared/ulid.ts';
import { SMALL_TABLE } from './config.ts';
import { batchWriteAll } from './replay.ts';
import { call, clientIdInvoice, newClientInvoice, TODAY } from './requests.ts';
import { dayTotalsRows, seedingClient } from './seeding.ts';

const NOW = '2026-01-01 00:00:00';
export const DUE_DATES = 365;
export const CLIENTS = 100;

const clientOf = (companyId: number, id: number): ClientRecord =>
  newClient(
    companyId,
    id,
    {
      first_name: 'Client',
      last_name: String(id),
      email: `c${id}@example.com`,
      phone: '+2348012345678',
      company_name: `Stores ${id}`,
    },
    NOW,
  );

type Seed = { table: string; item: Record<string, unknown> };

function addTo(rows: Map<string, RowAmounts & { at: string[] }>, key: string, at: string[], kobo: number) {
  const row = rows.get(key) ?? { outstandingKobo: 0, openCount: 0, changes: 0, at };
  row.outstandingKobo += kobo;
  row.openCount += 1;
  row.changes! += 1;
  rows.set(key, row);
}

/**
 * An account with `count` open invoices over 365 due dates (from 200 days ago to 164 days ahead: every bucket) and 100
 * clients, invoice i due on day i mod 365, of client i mod 100. Returns its key.
 */
export async function seedOpenInvoices(endpoint: string, count: number): Promise<string> {
  const created = await createAccount({ name: `Bench aging ${count}` });
  const { companyId } = created.account;
  const items: Seed[] = [];
  const put = (item: Record<string, unknown>) => items.push({ table: SMALL_TABLE, item });
  const clients = Array.from({ length: CLIENTS }, (_, i) => clientOf(companyId, i + 1));
  for (const client of clients) put({ ...clientItem(client), version: 1 });
  const accountRows = new Map<string, RowAmounts & { at: string[] }>();
  const clientRows = new Map<string, RowAmounts & { at: string[] }>();
  for (let i = 0; i < count; i++) {
    const client = clients[i % CLIENTS]!;
    const due = addDays(TODAY, -200 + (i % DUE_DATES));
    const request = {
      client_id: client.id,
      due_date: due,
      fee_bearer: 'client' as const,
      items: [{ item: 'Supplies', description: 'Monthly delivery', unit_cost: 10_000 + i, quantity: 1 }],
    };
    const invoice = buildInvoice(
      request,
      client,
      { invoiceId: i + 1, referenceCode: generateReferenceCode(), hostedToken: generateHostedToken() },
      'NGN',
      NOW,
    );
    const change = invoiceIssuedChange(invoice, 'Africa/Lagos');
    put(invoiceHeaderItem(invoice));
    put(invoiceBodyItem(invoice.details));
    put(hostedLinkItem(invoice.details.hostedToken!, invoice.details));
    put(openInvoiceItem(change));
    addTo(accountRows, change.dueDate, [change.dueDate], change.outstandingDeltaKobo);
    addTo(
      clientRows,
      `${client.id}|${change.dueDate}`,
      [String(client.id), change.dueDate],
      change.outstandingDeltaKobo,
    );
  }
  for (const row of accountRows.values()) put(agingRowItem(companyId, row.at[0]!, 0, row));
  for (const row of clientRows.values()) put(clientAgingRowItem(companyId, Number(row.at[0]), row.at[1]!, 0, row));
  await writeAll(endpoint, items);
  return created.secretKey;
}

/**
 * A client with `lines` ledger lines over the last 365 days (invoices of 100.00 and payments of 40.00, alternating),
 * beside the invoice that created it through the API, and the client aging row their balance adds up to.
 */
export async function seedLongLedger(endpoint: string, companyId: number, clientId: number, lines: number) {
  const items: Seed[] = [];
  let balance = 0;
  for (let i = 0; i < lines; i++) {
    const date = toIsoDate(addDays(TODAY, -364 + Math.floor((i * 365) / lines)));
    const invoice = i % 2 === 0;
    const line: LedgerLine = {
      companyId,
      clientId,
      date,
      recordedAt: `${date} 09:00:00`,
      type: invoice ? 'invoice' : 'payment',
      referenceCode: `BENCHLEDGER${String(i).padStart(9, '0')}`,
      description: invoice ? 'Supplies, Delivery' : 'Payment (BankTransfer)',
      debitKobo: invoice ? 10_000 : 0,
      creditKobo: invoice ? 0 : 4_000,
      sourceId: 1_000_000 + i,
    };
    balance += line.debitKobo - line.creditKobo;
    items.push({ table: SMALL_TABLE, item: ledgerItem(line) });
  }
  // Shard 7 of a due date no API write uses, so that no row the API wrote is replaced.
  const due = toIsoDate(addDays(TODAY, 400));
  items.push({
    table: SMALL_TABLE,
    item: clientAgingRowItem(companyId, clientId, due, 7, {
      outstandingKobo: balance,
      openCount: Math.ceil(lines / 2),
      changes: lines,
    }),
  });
  await writeAll(endpoint, items);
}

async function writeAll(endpoint: string, items: Seed[]): Promise<void> {
  const client = seedingClient(endpoint);
  try {
    await batchWriteAll(client, items, 4);
  } finally {
    client.destroy();
  }
}

/**
 * An account with `count` payments over the last 300 days on 25 invoices made through the API, written directly with
 * their day totals (as bench/seeding.ts writes the history account's): a CSV page of `count`. Returns its key.
 */
export async function seedPayments(endpoint: string, port: number, count: number): Promise<string> {
  const { account, secretKey } = await createAccount({ name: 'Bench CSV' });
  const first = await call(port, newClientInvoice(secretKey), 201);
  const clientId = Number(first.json.data.client.id);
  const invoices: { ref: string; id: number }[] = [];
  for (let i = 0; i < 25; i++) {
    const created = (await call(port, clientIdInvoice(secretKey, clientId), 201)).json.data;
    invoices.push({ ref: created.reference_code, id: Number(created.id) });
  }
  const payments = Array.from({ length: count }, (_, i) => ({
    table: SMALL_TABLE,
    item: paymentItem({
      id: i + 1,
      companyId: account.companyId,
      clientId,
      invoiceId: invoices[i % 25]!.id,
      referenceCode: invoices[i % 25]!.ref,
      amountKobo: 100_00 + i,
      currency: 'NGN',
      transactionDate: toEpochSeconds(addDays(TODAY, -(i % 300))),
      channel: 'Cash',
      createdAt: NOW,
      recordedId: newUlid(),
      inTotals: true,
    }),
  }));
  await writeAll(endpoint, [...payments, ...dayTotalsRows(SMALL_TABLE, payments)]);
  return secretKey;
}
