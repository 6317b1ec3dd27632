/**
 * The OpenAPI examples of the reminders route (docs/api.md "Reminders"), captured like the rest by
 * scripts/capture-examples.ts, whose request tools it is handed.
 */
import type { CapturedExamples } from '../shared/openapi/document.ts';
import type { CaptureTools } from './capture-tools.ts';

const invoiceBody = {
  client: { first_name: 'Tunde', last_name: 'Bello', email: 'tunde@example.com', phone: '+2348061234567' },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [{ item: 'Logo design', description: 'Three concepts', unit_cost: '120,000.00', quantity: '1' }],
};

export async function captureReminderExamples(tools: CaptureTools): Promise<Pick<CapturedExamples, 'requests'>> {
  const { capture, send } = tools;
  const invoice = (await send('add-invoice', { body: invoiceBody })).body.data;
  const path = { path: `/invoices/${invoice.reference_code}/reminders` };
  await capture('invoice-reminders', 200, 'paused', 'Pause the reminders', { ...path, body: { paused: true } });
  await capture('invoice-reminders', 200, 'resumed', 'Resume them', { ...path, body: { paused: false } });
  await capture('invoice-reminders', 404, 'invoice_not_found', 'Unknown reference_code', {
    path: '/invoices/AAAAAAAAAAAAAAAAAAAA/reminders',
    body: { paused: true },
  });
  const voided = (await send('add-invoice', { body: invoiceBody })).body.data.reference_code as string;
  await send('delete-invoice', { path: `/invoices/${voided}`, method: 'DELETE' });
  await capture('invoice-reminders', 409, 'invoice_deleted', 'The invoice was voided', {
    path: `/invoices/${voided}/reminders`,
    body: { paused: true },
  });
  await tools.commonErrors(
    'invoice-reminders',
    { paused: true },
    { paused: 'maybe' },
    'TransactWriteItemsCommand',
    path,
  );
  await idempotencyRefusals(tools, path);
  return { requests: { 'invoice-reminders': { json: { paused: true }, form: 'paused=true' } } };
}

async function idempotencyRefusals(tools: CaptureTools, path: { path: string }) {
  const { capture, send, withFault, inFlight } = tools;
  const keyed = { ...path, body: { paused: true }, headers: { 'idempotency-key': 'pause-example' } };
  await capture('invoice-reminders', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    ...keyed,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture('invoice-reminders', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', keyed),
  );
  await send('invoice-reminders', keyed);
  await capture('invoice-reminders', 422, 'idempotency_key_reused', 'Same Idempotency-Key, another body', {
    ...keyed,
    body: { paused: false },
  });
}
