/**
 * The one-off migration that gives invoices created before hosted pages their link (`data:migrate`;
 * docs/sending-invoices.md "Invoices created before hosted pages"): until it runs, their `hosted_url` is null. Each
 * gets a new random token in one transaction — the token on its body, on condition it has none yet, and its link
 * item, on condition it is new — so running it twice, or while the API serves, never gives an invoice two links.
 * Reads the whole table once (a Scan): an operator command, never part of a request.
 */
import { ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { generateHostedToken } from '../domain/hosted-token.ts';
import { putNew } from './actions.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { hostedLinkItem, type Item } from './items.ts';
import { keys } from './keys.ts';

/** Invoice bodies without a hosted token, in one Scan of the table. */
async function bodiesWithoutToken(): Promise<Item[]> {
  const found: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity = :body AND attribute_not_exists(hosted_token)',
        ExpressionAttributeValues: { ':body': 'invoice_body' },
        ProjectionExpression: 'reference_code, company_id',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
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
          putNew(table, hostedLinkItem(token, Number(body.company_id), referenceCode)),
        ],
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'TransactionCanceledException') return false;
    throw error;
  }
}

/** Links every invoice that has no hosted link yet; returns how many it linked. Idempotent. */
export async function migrateHostedLinks(): Promise<{ hosted_links: number }> {
  let linked = 0;
  for (const body of await bodiesWithoutToken()) if (await linkInvoice(body)) linked++;
  return { hosted_links: linked };
}
