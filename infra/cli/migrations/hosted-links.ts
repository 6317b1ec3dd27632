/**
 * `data:migrate`'s third step, for invoices created before hosted pages (docs/sending-invoices.md "Invoices created
 * before hosted pages"): until it runs, their `hosted_url` is null. Each gets a new random token in one transaction —
 * the token on its body, on condition it has none yet, and its link item, on condition it is new — so running it
 * twice, or while the API serves, never gives an invoice two links. Reads the whole table once (a Scan): an operator
 * command, never part of a request.
 *
 * Removal date: 2026-12-31, once `data:migrate` has printed `"hosted_links":0` on every stage and every DATA_DIR still
 * in use (docs/operations.md "Retiring a migration"). Nothing of the runtime goes with it: `hosted_url` stays nullable,
 * the API's documented shape.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { generateHostedToken } from '../../../shared/domain/hosted-token.ts';
import { isConditionFailure } from '../../../shared/store/api-keys.ts';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import { hostedLinkItem } from '../../../shared/store/invoice-lookups.ts';
import type { Item } from '../../../shared/store/items.ts';
import { keys } from '../../../shared/store/keys.ts';
import { putNew } from '../../../shared/store/write-executor.ts';
import type { DataMigration } from './migration-step.ts';
import { scanTable } from './table-scan.ts';

/** Invoice bodies without a hosted token, in one Scan of the table. */
async function bodiesWithoutToken(): Promise<Item[]> {
  const found: Item[] = [];
  const items = scanTable({
    FilterExpression: 'entity = :body AND attribute_not_exists(hosted_token)',
    ExpressionAttributeValues: { ':body': 'invoice_body' },
    ProjectionExpression: 'reference_code, company_id, client_id',
  });
  for await (const item of items) found.push(item);
  return found;
}

/** Gives one invoice its link; false when it got one meanwhile (another run). */
async function linkInvoice(body: Item): Promise<boolean> {
  const table = tableName();
  const referenceCode = String(body.reference_code);
  const token = generateHostedToken();
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: keys.invoiceBody(referenceCode),
              UpdateExpression: 'SET hosted_token = :token',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(hosted_token)',
              ExpressionAttributeValues: { ':token': token },
            },
          },
          putNew(
            table,
            hostedLinkItem(token, {
              companyId: Number(body.company_id),
              referenceCode,
              clientId: Number(body.client_id),
            }),
          ),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error, 0)) return false;
    throw error;
  }
}

/** Links every invoice that has no hosted link yet; returns how many it linked. Idempotent. */
export async function migrateHostedLinks(): Promise<number> {
  let linked = 0;
  for (const body of await bodiesWithoutToken()) if (await linkInvoice(body)) linked++;
  return linked;
}

export const hostedLinksMigration: DataMigration = {
  name: 'hosted-links',
  summary: 'give invoices created before hosted pages their link (hosted_url)',
  prints: '"hosted_links" (invoices given a hosted page link)',
  run: async () => ({ hosted_links: await migrateHostedLinks() }),
};
