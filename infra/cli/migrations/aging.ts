/**
 * `data:migrate`'s fourth step, for invoices written before the receivables items (docs/data-design.md "Receivables",
 * docs/operations.md "Upgrading a table to aging"): each invoice header without `in_aging` is counted once — one transaction that sets `in_aging` on the
 * version the scan saw, adds its current amount due to its aging rows, puts its open-invoice item when it is open and
 * writes its ledger lines (invoice, payments, reversals, void). Until then no write touches its receivables (they
 * check `in_aging`), so nothing is counted twice; a header a payment changed during the scan waits for the next run.
 * Reads the whole table once (a Scan): an operator command, never part of a request. Idempotent: ledger keys are
 * deterministic and a counted header is skipped.
 *
 * Removal date: 2026-12-31, once `data:migrate` has printed `"aging_counted":0` and `"aging_changed_meanwhile":0` on
 * every stage and every DATA_DIR still in use (docs/operations.md "Retiring a migration"). With it go the receivables'
 * checks of `in_aging` (shared/domain/receivables.ts): every invoice is then counted.
 */
import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '../../../shared/domain/invoice.ts';
import type { PaymentRecord } from '../../../shared/domain/payment-record.ts';
import { existingInvoice } from '../../../shared/domain/receivables.ts';
import { getAccount } from '../../../shared/store/accounts.ts';
import { isConditionFailure } from '../../../shared/store/api-keys.ts';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import { balanceFromItem, detailsFromItem } from '../../../shared/store/invoice-items.ts';
import { type Item, paymentFromItem } from '../../../shared/store/items.ts';
import { keys, referenceCodeOf } from '../../../shared/store/keys.ts';
import { agingRowActions, ledgerItem, openInvoiceItem } from '../../../shared/store/receivables.ts';
import type { TransactItem } from '../../../shared/store/write-executor.ts';
import type { DataMigration } from './migration-step.ts';
import { scanTable } from './table-scan.ts';

export interface AgingMigration {
  /** Invoices counted in the aging rows and the client ledgers. */
  aging_counted: number;
  /** Invoices a payment, reversal or void changed while the migration ran: run it again for those. */
  aging_changed_meanwhile: number;
}

interface Found {
  headers: Item[];
  bodies: Map<string, Item>;
  payments: Map<string, PaymentRecord[]>;
}

async function findUncounted(): Promise<Found> {
  const found: Found = { headers: [], bodies: new Map(), payments: new Map() };
  const items = scanTable({
    FilterExpression: '(entity = :header AND attribute_not_exists(in_aging)) OR entity IN (:body, :payment)',
    ExpressionAttributeValues: { ':header': 'invoice_header', ':body': 'invoice_body', ':payment': 'payment' },
  });
  for await (const item of items) {
    if (item.entity === 'invoice_header') found.headers.push(item);
    else if (item.entity === 'invoice_body') found.bodies.set(String(item.reference_code), item);
    else {
      const payment = paymentFromItem(item);
      found.payments.set(payment.referenceCode, [...(found.payments.get(payment.referenceCode) ?? []), payment]);
    }
  }
  return found;
}

/** Items per TransactWriteItems and per BatchWriteItem. */
const TRANSACTION_ITEMS = 100;
const BATCH_ITEMS = 25;

/**
 * Counts one invoice; false when its header changed since the scan. Ledger lines beyond what one transaction takes are
 * put first (an invoice with very many payments): harmless if the transaction then fails, as the next run puts the
 * same keys again and no statement reads a client's balance without its rows.
 */
async function countInvoice(header: Item, invoice: Invoice, payments: readonly PaymentRecord[], timeZone: string) {
  const table = tableName();
  const { change, lines } = existingInvoice(invoice, payments, timeZone);
  const actions: TransactItem[] = [
    {
      Update: {
        TableName: table,
        Key: keys.invoiceHeader(invoice.details.referenceCode),
        UpdateExpression: 'SET in_aging = :yes',
        ConditionExpression: 'attribute_not_exists(in_aging) AND version = :version',
        ExpressionAttributeValues: { ':yes': true, ':version': header.version },
      },
    },
    ...agingRowActions(table, change, 0),
    ...(change.openInvoice === 'put' ? [{ Put: { TableName: table, Item: openInvoiceItem(change) } }] : []),
  ];
  const items = lines.map((line) => ledgerItem(line));
  const early = items.splice(0, Math.max(0, items.length - (TRANSACTION_ITEMS - actions.length)));
  for (let i = 0; i < early.length; i += BATCH_ITEMS) await putAll(early.slice(i, i + BATCH_ITEMS));
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [...actions, ...items.map((Item) => ({ Put: { TableName: table, Item } }))],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error, 0)) return false;
    throw error;
  }
}

async function putAll(items: Item[]): Promise<void> {
  let unprocessed: Record<string, unknown>[] | undefined = items.map((Item) => ({ PutRequest: { Item } }));
  while (unprocessed && unprocessed.length > 0) {
    const result = await documentClient().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: unprocessed as never } }),
    );
    unprocessed = result.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined;
  }
}

/** Counts every invoice written before the receivables items in them (see the module comment). */
export async function countLegacyInvoices(): Promise<AgingMigration> {
  const found = await findUncounted();
  const result: AgingMigration = { aging_counted: 0, aging_changed_meanwhile: 0 };
  const timeZones = new Map<number, string>();
  for (const header of found.headers) {
    const body = found.bodies.get(referenceCodeOf(String(header.PK)));
    if (!body) continue; // a header whose body never committed does not exist (they commit together)
    const invoice = { details: detailsFromItem(body), balance: balanceFromItem(header) };
    const payments = found.payments.get(invoice.details.referenceCode) ?? [];
    // A Scan is no snapshot: when the payments found do not add up to the header's amount_paid, one is missing.
    const paidKobo = payments.filter((p) => !p.reversal).reduce((sum, p) => sum + p.amountKobo, 0);
    const { companyId } = invoice.details;
    if (!timeZones.has(companyId)) timeZones.set(companyId, (await getAccount(companyId))?.timeZone ?? 'Africa/Lagos');
    if (
      paidKobo === invoice.balance.amountPaidKobo &&
      (await countInvoice(header, invoice, payments, timeZones.get(companyId)!))
    )
      result.aging_counted++;
    else result.aging_changed_meanwhile++;
  }
  return result;
}

export const agingMigration: DataMigration = {
  name: 'aging',
  summary: 'count invoices written before aging in the aging rows, open invoices and client ledgers',
  prints:
    '"aging_counted" (invoices counted in aging and statements), "aging_changed_meanwhile" (changed during the run: ' +
    'run again for those)',
  run: async () => ({ ...(await countLegacyInvoices()) }),
};
