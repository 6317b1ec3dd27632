/**
 * The OpenAPI examples of the routes added after the first three (invoice reads and deletes, invoice history, an
 * invoice's latest payment, clients, reversals), captured like the rest with the tools of scripts/capture-tools.ts.
 */
import type { CapturedExamples } from '../shared/openapi/document.ts';
import { captureReportExamples } from './capture-report-examples.ts';
import type { CaptureTools } from './capture-tools.ts';

const invoiceBody = (email: string) => ({
  client: { first_name: 'Chidi', last_name: 'Eze', email, phone: '+2348031234567', company_name: 'Eze Foods' },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [{ item: 'Catering', description: 'Launch event, 80 guests', unit_cost: '120,000.00', quantity: '1' }],
});

export async function captureResourceExamples(tools: CaptureTools): Promise<Pick<CapturedExamples, 'requests'>> {
  const history = await captureInvoiceExamples(tools);
  const client = await captureClientExamples(tools);
  const reversal = await captureReversalExamples(tools);
  const reports = await captureReportExamples(tools);
  return {
    requests: {
      ...reports.requests,
      'reverse-payment': { json: reversal, form: new URLSearchParams(reversal).toString() },
      'invoice-history': { json: history, form: 'period=month&limit=2' },
      'add-client': { json: client, form: new URLSearchParams(client).toString() },
      'update-client': { json: { phone: '+2348098765432' }, form: 'phone=%2B2348098765432' },
    },
  };
}

async function captureInvoiceExamples({ capture, send, commonErrors, faultErrors, today }: CaptureTools) {
  const invoice = (await send('add-invoice', { body: invoiceBody('chidi@example.com') })).body.data;
  const at = (route: string, code: string) => ({ path: route.replace('{}', code) });
  const ref = invoice.reference_code as string;
  const unknown = 'AAAAAAAAAAAAAAAAAAAA';

  await capture('get-invoice', 200, 'invoice', 'An invoice', at('/invoices/{}', ref));
  await capture('get-invoice', 404, 'invoice_not_found', 'Unknown reference_code', at('/invoices/{}', unknown));
  await faultErrors('get-invoice', at('/invoices/{}', ref), 'BatchGetItemCommand');

  // The keyed PDF answers a PDF (not captured); its errors are the JSON envelope.
  await capture('invoice-pdf', 404, 'invoice_not_found', 'Unknown reference_code', at('/invoices/{}/pdf', unknown));
  await faultErrors('invoice-pdf', at('/invoices/{}/pdf', ref), 'BatchGetItemCommand');

  await capture('get-payment', 404, 'payment_not_found', 'No payment yet', at('/payments/{}', ref));
  const payment = { reference_code: ref, date: today, amount: '50,000.00', channel: 'POS' };
  await send('add-payment', { body: payment });
  await capture('get-payment', 200, 'latest_payment', "The invoice's latest payment", at('/payments/{}', ref));
  await capture('get-payment', 404, 'invoice_not_found', 'Unknown reference_code', at('/payments/{}', unknown));
  await faultErrors('get-payment', at('/payments/{}', ref), 'BatchGetItemCommand');

  await capture('delete-invoice', 409, 'invoice_has_payments', 'A payment is recorded', at('/invoices/{}', ref));
  await capture('delete-invoice', 404, 'invoice_not_found', 'Unknown reference_code', at('/invoices/{}', unknown));
  const unpaid = (await send('add-invoice', { body: invoiceBody('chidi@example.com') })).body.data;
  await faultErrors('delete-invoice', at('/invoices/{}', unpaid.reference_code), 'TransactWriteItemsCommand');
  await capture('delete-invoice', 200, 'deleted', 'Invoice deleted', at('/invoices/{}', unpaid.reference_code));
  await capture('add-payment', 409, 'invoice_deleted', 'The invoice was deleted', {
    body: { ...payment, reference_code: unpaid.reference_code },
  });

  const history = { period: 'month', limit: 2 };
  const page = await capture('invoice-history', 200, 'first_page', 'First page of this month (limit 2)', {
    body: history,
  });
  await capture('invoice-history', 200, 'paid_only', 'Only paid invoices', {
    body: { period: 'month', payment_status: 'paid' },
  });
  await capture('invoice-history', 400, 'invalid_period', 'custom without end', {
    body: { period: 'custom', start: '01/01/2024' },
  });
  await capture('invoice-history', 400, 'invalid_cursor', 'Cursor of another period', {
    body: { period: 'today', cursor: page.data.next_cursor },
  });
  await commonErrors('invoice-history', history, { period: 'month', limit: 0 }, 'QueryCommand');
  return history;
}

async function captureClientExamples(tools: CaptureTools) {
  const { capture, send, withFault, inFlight, commonErrors } = tools;
  const client = {
    first_name: 'Ngozi',
    last_name: 'Adeyemi',
    email: 'ngozi@example.com',
    phone: '+2348051234567',
    company_name: 'Adeyemi Logistics',
    address: '12 Marina, Lagos',
  };
  const created = await capture('add-client', 201, 'created', 'A new client', { body: client });
  await capture('add-client', 200, 'existing_email', 'A client with this email exists', {
    body: { ...client, email: 'NGOZI@example.com' },
  });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture('add-client', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', {
      body: { ...client, email: 'tunde@example.com' },
      headers: { 'idempotency-key': 'client-tunde' },
    }),
  );
  await capture('add-client', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    body: client,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await send('add-client', { body: { ...client, email: 'bola@example.com' }, headers: { 'idempotency-key': 'c-9' } });
  await capture('add-client', 422, 'idempotency_key_reused', 'Same Idempotency-Key, different body', {
    body: { ...client, email: 'kemi@example.com' },
    headers: { 'idempotency-key': 'c-9' },
  });
  await commonErrors(
    'add-client',
    { ...client, email: 'femi@example.com' },
    { ...client, email: 'nope' },
    'TransactWriteItemsCommand',
  );

  await captureClientChanges(tools, `/clients/${created.data.id}`);
  return client;
}

/** Read, list, update and delete one client (at `path`). */
async function captureClientChanges({ capture, commonErrors, faultErrors }: CaptureTools, path: string) {
  await capture('get-client', 200, 'client', 'A client', { path });
  await capture('get-client', 404, 'client_not_found', 'Unknown id', { path: '/clients/999999' });
  await faultErrors('get-client', { path }, 'BatchGetItemCommand');

  const page = await capture('list-clients', 200, 'first_page', 'Newest two clients', { path: '/clients?limit=2' });
  await capture('list-clients', 400, 'validation_failed', 'limit out of range', { path: '/clients?limit=501' });
  await capture('list-clients', 400, 'invalid_cursor', 'A forged cursor', {
    path: `/clients?cursor=${encodeURIComponent(`${String(page.data.next_cursor).slice(0, -4)}AAAA`)}`,
  });
  await faultErrors('list-clients', { path: '/clients' }, 'QueryCommand');

  await capture('update-client', 200, 'updated', 'A new phone number', { path, body: { phone: '+2348098765432' } });
  await capture('update-client', 409, 'duplicate_client_email', "Another client's email", {
    path,
    body: { email: 'bola@example.com' },
  });
  await capture('update-client', 404, 'client_not_found', 'Unknown id', { path: '/clients/999999', body: {} });
  await commonErrors('update-client', { last_name: 'Adeyemi-Okon' }, { phone: 'x' }, 'TransactWriteItemsCommand', {
    path,
  });

  await faultErrors('delete-client', { path }, 'TransactWriteItemsCommand');
  await capture('delete-client', 200, 'deleted', 'Client deleted', { path });
  await capture('delete-client', 404, 'client_not_found', 'Unknown id', { path: '/clients/999999' });
}

async function captureReversalExamples(tools: CaptureTools) {
  const { capture, send, withFault, inFlight, commonErrors, today } = tools;
  const invoice = (await send('add-invoice', { body: invoiceBody('amaka@example.com') })).body.data;
  const pay = async () =>
    (
      await send('add-payment', {
        body: { reference_code: invoice.reference_code, date: today, amount: '500.00', channel: 'Cash' },
      })
    ).body.data.id as number;
  const reversal = { reason: 'Keyed 50,000.00 instead of 5,000.00' };
  const path = `/payments/${await pay()}/reversal`;
  await capture('reverse-payment', 200, 'reversed', 'A payment reversed', { path, body: reversal });
  await capture('reverse-payment', 409, 'payment_already_reversed', 'Reversed before', { path, body: reversal });
  await capture('reverse-payment', 404, 'payment_not_found', 'Unknown payment id', {
    path: '/payments/999999/reversal',
    body: reversal,
  });
  const next = `/payments/${await pay()}/reversal`;
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture('reverse-payment', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', {
      path: next,
      body: reversal,
      headers: { 'idempotency-key': 'reverse-1' },
    }),
  );
  await capture('reverse-payment', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    path: next,
    body: reversal,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await send('reverse-payment', { path: next, body: reversal, headers: { 'idempotency-key': 'reverse-2' } });
  await capture('reverse-payment', 422, 'idempotency_key_reused', 'Same Idempotency-Key, different body', {
    path: next,
    body: { reason: 'Another reason' },
    headers: { 'idempotency-key': 'reverse-2' },
  });
  // A reversal's read is a snapshot (TransactGetItems): its 500 is a bug there.
  const another = { path: `/payments/${await pay()}/reversal` };
  await commonErrors(
    'reverse-payment',
    reversal,
    { reason: '' },
    'TransactWriteItemsCommand',
    another,
    'TransactGetItemsCommand',
  );
  return reversal;
}
