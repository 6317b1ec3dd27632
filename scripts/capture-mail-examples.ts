/**
 * The OpenAPI examples of the send routes (docs/api.md "Send an invoice"), captured like the rest by
 * scripts/capture-examples.ts, whose request tools it is handed.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { withEnvironment } from '../infra/tools/environment.ts';
import type { CapturedExamples } from '../shared/openapi/document.ts';
import { documentClient, tableName } from '../shared/store/dynamodb-client.ts';
import { keys } from '../shared/store/keys.ts';
import type { CaptureTools } from './capture-tools.ts';

const invoiceBody = {
  client: { first_name: 'Ngozi', last_name: 'Okafor', email: 'ngozi@example.com', phone: '+2348051234567' },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [{ item: 'Bookkeeping', description: 'November', unit_cost: '85,000.00', quantity: '1' }],
};

const SEND_BODY = {
  to: 'accounts@okafor.example.com',
  cc: ['ngozi@example.com'],
  message: 'Thank you for your business.',
};

const withSender = <T>(mailFrom: string, action: () => Promise<T>) => withEnvironment({ MAIL_FROM: mailFrom }, action);

export async function captureMailExamples(tools: CaptureTools): Promise<Pick<CapturedExamples, 'requests'>> {
  const { capture, send } = tools;
  const invoice = (await send('add-invoice', { body: invoiceBody })).body.data;
  const sendPath = { path: `/invoices/send/${invoice.reference_code}` };
  const postPath = { path: `/invoices/${invoice.reference_code}/send` };
  await withSender('', async () => {
    await capture('send-invoice', 501, 'mail_not_configured', 'No sender on this stage', {
      ...sendPath,
      body: undefined,
    });
    await capture('email-invoice', 501, 'mail_not_configured', 'No sender on this stage', { ...postPath, body: {} });
  });
  await withSender('invoices@example.com', async () => {
    await capture('send-invoice', 200, 'queued', "Queued for the client's address", { ...sendPath, body: undefined });
    await capture('email-invoice', 200, 'queued', 'Queued to another address, with a copy and a note', {
      ...postPath,
      body: SEND_BODY,
    });
    for (const [route, path] of [
      ['send-invoice', sendPath],
      ['email-invoice', postPath],
    ] as const)
      await refusals(tools, route, path, invoice.reference_code as string);
    await tools.commonErrors(
      'email-invoice',
      SEND_BODY,
      { to: 'not-an-address' },
      'TransactWriteItemsCommand',
      postPath,
    );
    await tools.faultErrors('send-invoice', sendPath, 'TransactWriteItemsCommand');
  });
  return {
    requests: {
      'email-invoice': {
        json: SEND_BODY,
        form: new URLSearchParams({ to: SEND_BODY.to, message: SEND_BODY.message }).toString(),
      },
    },
  };
}

async function refusals(
  tools: CaptureTools,
  route: 'send-invoice' | 'email-invoice',
  path: { path: string },
  code: string,
) {
  const { capture, send, withFault, inFlight } = tools;
  const at = (reference: string) => ({
    path: path.path.replace(code, reference),
    body: route === 'email-invoice' ? {} : undefined,
  });
  await capture(route, 404, 'invoice_not_found', 'Unknown reference_code', at('AAAAAAAAAAAAAAAAAAAA'));
  const voided = (await send('add-invoice', { body: invoiceBody })).body.data.reference_code as string;
  await send('delete-invoice', { path: `/invoices/${voided}`, method: 'DELETE' });
  await capture(route, 409, 'invoice_deleted', 'The invoice was voided', at(voided));
  const clientless = (await send('add-invoice', { body: invoiceBody })).body.data.reference_code as string;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.invoiceBody(clientless),
      UpdateExpression: 'SET #client.email = :blank',
      ExpressionAttributeNames: { '#client': 'client' },
      ExpressionAttributeValues: { ':blank': '' },
    }),
  );
  await capture(route, 422, 'recipient_missing', 'The client has no e-mail address (no `to` given)', at(clientless));
  const keyed = { ...at(code), headers: { 'idempotency-key': `${route}-example` } };
  await capture(route, 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    ...keyed,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture(route, 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', keyed),
  );
  await send(route, keyed);
  await capture(route, 422, 'idempotency_key_reused', 'Same Idempotency-Key, another invoice', {
    ...keyed,
    path: path.path.replace(code, voided),
  });
}
