/**
 * An account's one webhook endpoint (docs/webhooks.md "Setting an endpoint"): URL, sealed secret, when it became
 * active.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamodb-client.ts';
import { keys } from './keys.ts';

export interface Endpoint {
  companyId: number;
  url: string;
  sealedSecret: Uint8Array;
  /** Epoch ms since when an endpoint has been set without interruption (rotation keeps it). */
  activeSinceMs: number;
  setAt: string;
}

export async function getEndpoint(companyId: number): Promise<Endpoint | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookEndpoint(companyId), ConsistentRead: true }),
  );
  const item = out.Item;
  if (!item) return undefined;
  return {
    companyId,
    url: String(item.url),
    sealedSecret: item.secret_sealed as Uint8Array,
    activeSinceMs: Number(item.active_since_ms),
    setAt: String(item.set_at),
  };
}

/** Sets (or replaces: URL and secret rotate together) the account's one endpoint. */
export async function putEndpoint(
  companyId: number,
  url: string,
  sealedSecret: Uint8Array,
  nowMs: number = Date.now(),
): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookEndpoint(companyId),
      UpdateExpression:
        'SET entity = :entity, company_id = :company, #url = :url, secret_sealed = :sealed, set_at = :set_at, active_since_ms = if_not_exists(active_since_ms, :now)',
      ExpressionAttributeNames: { '#url': 'url' },
      ExpressionAttributeValues: {
        ':entity': 'webhook_endpoint',
        ':company': companyId,
        ':url': url,
        ':sealed': sealedSecret,
        ':set_at': new Date(nowMs).toISOString(),
        ':now': nowMs,
      },
    }),
  );
}

/** Removes the endpoint; false when there was none. */
export async function deleteEndpoint(companyId: number): Promise<boolean> {
  const out = await documentClient().send(
    new DeleteCommand({ TableName: tableName(), Key: keys.webhookEndpoint(companyId), ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes !== undefined;
}
