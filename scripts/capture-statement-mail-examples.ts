/**
 * The OpenAPI examples of `POST /clients/{id}/statement/send` (docs/receivables.md "One client: the statement"), captured like the
 * rest by scripts/capture-examples.ts, whose request tools scripts/capture-report-examples.ts hands on.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { withEnvironment } from '../infra/tools/environment.ts';
import type { CapturedExamples } from '../shared/openapi/document.ts';
import { documentClient, tableName } from '../shared/store/dynamodb-client.ts';
import { keys } from '../shared/store/keys.ts';
import type { CaptureTools } from './capture-tools.ts';

const SEND_BODY = { period: 'month', to: 'accounts@okafor.example.com' };

const withSender = <T>(mailFrom: string, action: () => Promise<T>) => withEnvironment({ MAIL_FROM: mailFrom }, action);

/** `clientId` has invoices and payments this month; `crowdedClientId` more than 5,000 lines today. */
export async function captureStatementMailExamples(
  tools: CaptureTools,
  clients: { clientId: number; companyId: number; crowdedClientId: number },
): Promise<Pick<CapturedExamples, 'requests'>> {
  const { capture, commonErrors } = tools;
  const at = (id: number) => `/clients/${id}/statement/send`;
  const path = at(clients.clientId);
  const route = 'send-client-statement';
  await withSender('', () =>
    capture(route, 501, 'mail_not_configured', 'No sender on this stage', { path, body: { period: 'month' } }),
  );
  await withSender('statements@example.com', async () => {
    await capture(route, 200, 'queued', "This month's statement, to the client's address", {
      path,
      body: { period: 'month' },
    });
    await capture(route, 200, 'queued_to', 'To another address', { path, body: SEND_BODY });
    await capture(route, 404, 'client_not_found', 'Unknown client', { path: at(999999), body: { period: 'month' } });
    await capture(route, 400, 'invalid_period', 'custom without end', {
      path,
      body: { period: 'custom', start: '01/01/2026' },
    });
    await capture(route, 400, 'statement_too_large', 'More than 5,000 lines in the period', {
      path: at(clients.crowdedClientId),
      body: { period: 'today' },
    });
    await withoutEmail(clients.companyId, clients.clientId, () =>
      capture(route, 422, 'recipient_missing', 'The client has no e-mail address (no `to` given)', {
        path,
        body: { period: 'month' },
      }),
    );
    await keyedExamples(tools, path);
    await commonErrors(route, SEND_BODY, { period: 'month', to: 'not-an-address' }, 'TransactWriteItemsCommand', {
      path,
    });
  });
  return { requests: { [route]: { json: SEND_BODY, form: new URLSearchParams(SEND_BODY).toString() } } };
}

/** The Idempotency-Key's answers. */
async function keyedExamples({ capture, send, withFault, inFlight }: CaptureTools, path: string) {
  const route = 'send-client-statement';
  const keyed = { path, body: SEND_BODY, headers: { 'idempotency-key': 'statement-example' } };
  await capture(route, 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    ...keyed,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture(route, 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', keyed),
  );
  await send(route, keyed);
  await capture(route, 422, 'idempotency_key_reused', 'Same Idempotency-Key, another period', {
    ...keyed,
    body: { ...SEND_BODY, period: 'year' },
  });
}

/** Runs `action` while the client's e-mail address is blank (as a client saved without one). */
async function withoutEmail<T>(companyId: number, clientId: number, action: () => Promise<T>): Promise<T> {
  const set = (email: string) =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.client(companyId, clientId),
        UpdateExpression: 'SET email = :email',
        ExpressionAttributeValues: { ':email': email },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
  const before = await set('');
  try {
    return await action();
  } finally {
    await set(String(before.Attributes?.email ?? ''));
  }
}
