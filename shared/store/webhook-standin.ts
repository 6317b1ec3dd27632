/**
 * TEMPORARY stand-in for i12a (drop at merge): the smallest outbox, endpoint and delivery-state items
 * that let the transport (i12b) run end to end. The real ones live in i12a's shared/store/webhooks.ts.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { formatTimestamp } from '../domain/dates';
import { documentClient, tableName } from './client';
import type { TransactItem } from './write-executor';

export type StandinEventType = 'invoice.created' | 'payment.recorded' | 'invoice.paid';

export function standinEventPut(table: string, companyId: number, type: StandinEventType, data: unknown): TransactItem {
  const id = `evt_${ulid()}`;
  const body = JSON.stringify({ id, type, created_at: formatTimestamp(new Date()), company_id: String(companyId), data });
  return {
    Put: {
      TableName: table,
      Item: { PK: `STANDIN_EVENT#${id}`, SK: 'EVENT', entity: 'webhook_event', event_id: id, company_id: companyId, body, attempts: 0 },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export async function standinSetEndpoint(companyId: number, url: string): Promise<string> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { PK: `STANDIN_WEBHOOK#${companyId}`, SK: 'ENDPOINT', url, secret } }),
  );
  return secret;
}

export async function standinEvent(eventId: string) {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { PK: `STANDIN_EVENT#${eventId}`, SK: 'EVENT' } }));
  return Item as { company_id: number; body: string; attempts: number; state?: string } | undefined;
}

export async function standinEndpoint(companyId: number) {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { PK: `STANDIN_WEBHOOK#${companyId}`, SK: 'ENDPOINT' } }),
  );
  return Item as { url: string; secret: string } | undefined;
}

export async function standinRecordAttempt(eventId: string, attempts: number, state: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: `STANDIN_EVENT#${eventId}`, SK: 'EVENT' },
      UpdateExpression: 'SET attempts = :attempts, #state = :state',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':attempts': attempts, ':state': state },
    }),
  );
}

export function standinSign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
