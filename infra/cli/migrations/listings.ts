/**
 * `data:migrate`'s first step, for data written before the invoice and client routes (docs/data-design.md "Data
 * written before these routes"): invoice headers get their GSI1 keys (invoice history), `payments_count` and
 * `latest_payment` (`GET /payments/{ref}`, deletion); live clients get their GSI1 keys (`GET /clients`).
 * Reads the whole table once (a Scan), so it is an operator command, never part of a request. Idempotent, and safe
 * while the API serves: each header is rewritten on condition of the version the scan saw, and only when the payments
 * the scan found add up to its `amount_paid`, so a payment committed meanwhile makes that header wait for the next run
 * (reported as `changed_meanwhile`). Reversed payments are not counted (docs/api.md "Reversing a payment").
 *
 * It also puts open invoice headers (something due, not deleted, never notified overdue) written before the overdue
 * index into it (GSI2, `overdue_indexed`), so the wake sweep finds them — those already past their due date are
 * then notified `invoice.overdue` once, late (docs/decisions.md "Overdue").
 *
 * Removal date: 2026-12-31, once every stage's table and every DATA_DIR still in use holds the marker
 * `MIGRATION#listings` with `invoices`, `clients`, `overdue_indexed` and `changed_meanwhile` all 0 (docs/operations.md
 * "Retiring a migration"). With it go the reads of data from before these routes: a client's version 0
 * (shared/store/clients.ts), deletion refused by `amount_paid` alone (shared/domain/invoice-deletion.ts), and
 * ensureTable adding GSI2 to an older DATA_DIR's table (infra/local/dynamodb-local.ts).
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { fromEpochSeconds, toIsoDate } from '../../../shared/domain/dates.ts';
import type { PaymentRecord } from '../../../shared/domain/payment-record.ts';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import { type Item, paymentAttributes, paymentFromItem } from '../../../shared/store/items.ts';
import { clientIndexKeys, invoiceIndexKeys, keys, referenceCodeOf, wakeIndexKeys } from '../../../shared/store/keys.ts';
import type { DataMigration } from './migration-step.ts';
import { scanTable } from './table-scan.ts';

const MIGRATION = 'listings';
const ENTITIES = ['invoice_header', 'invoice_body', 'client', 'payment'];

export type ListingMigration = {
  invoices: number;
  clients: number;
  /** Open invoice headers put into the overdue index (GSI2). */
  overdue_indexed: number;
  /** Headers a payment or deletion changed during the run: run again to migrate them. */
  changed_meanwhile: number;
};

interface Found {
  headers: Item[];
  bodies: Map<string, Item>;
  clients: Item[];
  payments: Map<string, PaymentRecord[]>;
}

/** Every item the migration looks at, in one Scan of the table. */
async function findItems(): Promise<Found> {
  const found: Found = { headers: [], bodies: new Map(), clients: [], payments: new Map() };
  const items = scanTable({
    FilterExpression: 'entity IN (:header, :body, :client, :payment)',
    ExpressionAttributeValues: Object.fromEntries(
      ['header', 'body', 'client', 'payment'].map((name, i) => [`:${name}`, ENTITIES[i]]),
    ),
  });
  for await (const item of items) collect(found, item);
  return found;
}

function collect(found: Found, item: Item): void {
  if (item.entity === 'invoice_header') found.headers.push(item);
  else if (item.entity === 'invoice_body') found.bodies.set(String(item.reference_code), item);
  else if (item.entity === 'client') found.clients.push(item);
  else {
    const payment = paymentFromItem(item);
    found.payments.set(payment.referenceCode, [...(found.payments.get(payment.referenceCode) ?? []), payment]);
  }
}

/** The latest of an invoice's payments: the last recorded (recorded ids are ULIDs, in recording order). */
const latestOf = (payments: readonly PaymentRecord[]): PaymentRecord | undefined =>
  [...payments].sort((a, b) => a.recordedId.localeCompare(b.recordedId)).at(-1);

/** Rewrites one legacy header; false when it changed since the scan (or was migrated meanwhile). */
async function migrateHeader(header: Item, body: Item, payments: readonly PaymentRecord[]): Promise<boolean> {
  const companyId = Number(header.company_id);
  const referenceCode = String(body.reference_code);
  const latest = latestOf(payments);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceHeader(referenceCode),
        UpdateExpression: `SET GSI1PK = :pk, GSI1SK = :sk, payments_count = :count${latest ? ', latest_payment = :latest' : ''}`,
        ConditionExpression: 'attribute_not_exists(GSI1PK) AND version = :version',
        ExpressionAttributeValues: {
          ':pk': invoiceIndexKeys.partition(companyId),
          ':sk': invoiceIndexKeys.sort(String(body.created_at), referenceCode),
          ':count': payments.length,
          ':version': header.version,
          ...(latest ? { ':latest': paymentAttributes(latest) } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Puts one open header written before the overdue index into it; false when it changed since the scan. */
async function indexOpenHeader(header: Item, body: Item): Promise<boolean> {
  const referenceCode = String(body.reference_code);
  const index = wakeIndexKeys.attributes(referenceCode, toIsoDate(fromEpochSeconds(Number(body.due_date))));
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceHeader(referenceCode),
        UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk',
        ConditionExpression:
          'attribute_not_exists(GSI2PK) AND attribute_not_exists(overdue_notified_at) AND version = :version',
        ExpressionAttributeValues: { ':pk': index.GSI2PK, ':sk': index.GSI2SK, ':version': header.version },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Open (something due, not deleted), never notified overdue, and not in the overdue index. */
const isUnindexedOpenHeader = (header: Item) =>
  header.GSI2PK === undefined &&
  header.overdue_notified_at === undefined &&
  header.deleted_at === undefined &&
  Number(header.amount_due) > 0;

/** Gives one live legacy client its index keys; false when it changed meanwhile (deleted, or migrated). */
async function migrateClient(client: Item): Promise<boolean> {
  const companyId = Number(client.company_id);
  const clientId = Number(client.client_id);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.client(companyId, clientId),
        UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
        ConditionExpression:
          'attribute_exists(PK) AND attribute_not_exists(GSI1PK) AND attribute_not_exists(deleted_at)',
        ExpressionAttributeValues: {
          ':pk': clientIndexKeys.partition(companyId),
          ':sk': clientIndexKeys.sort(String(client.created_at), clientId),
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Migrates every legacy header and client the scan finds, then records the run in the `MIGRATION#listings` marker. */
export async function migrateListings(nowMs = Date.now()): Promise<ListingMigration> {
  const found = await findItems();
  const result: ListingMigration = { invoices: 0, clients: 0, overdue_indexed: 0, changed_meanwhile: 0 };
  for (const header of found.headers.filter((item) => item.GSI1PK === undefined)) {
    const body = found.bodies.get(referenceCodeOf(String(header.PK)));
    if (!body) continue; // a header whose invoice never committed its body does not exist (they commit together)
    const payments = (found.payments.get(String(body.reference_code)) ?? []).filter((p) => !p.reversal);
    // A Scan is no snapshot: a payment committed while it ran may be missing although its header was seen after it.
    // The header's amount_paid tells: when the payments found do not add up to it, leave the header for the next run.
    const paidKobo = payments.reduce((sum, payment) => sum + payment.amountKobo, 0);
    if (paidKobo !== Number(header.amount_paid)) result.changed_meanwhile++;
    else if (await migrateHeader(header, body, payments)) result.invoices++;
    else result.changed_meanwhile++;
  }
  for (const header of found.headers.filter(isUnindexedOpenHeader)) {
    const body = found.bodies.get(referenceCodeOf(String(header.PK)));
    if (!body) continue;
    if (await indexOpenHeader(header, body)) result.overdue_indexed++;
    else result.changed_meanwhile++;
  }
  for (const client of found.clients.filter((item) => item.GSI1PK === undefined && item.deleted_at === undefined))
    if (await migrateClient(client)) result.clients++;
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.migration(MIGRATION), type: 'migration', finished_at: new Date(nowMs).toISOString(), ...result },
    }),
  );
  return result;
}

export const listingsMigration: DataMigration = {
  name: MIGRATION,
  summary:
    'list invoices and clients written before the invoice and client routes, and index open invoices for overdue',
  prints:
    '"invoices","clients" (migrated), "overdue_indexed" (open invoices put into the overdue index), "changed_meanwhile" ' +
    '(invoices a payment changed during the run: run again for those)',
  run: () => migrateListings(),
};
