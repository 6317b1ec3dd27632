/**
 * The OpenAPI examples of the invoice, payment and client routes (with the local runtime's routing errors and the
 * form-encoded invoice), captured with the tools of scripts/capture-tools.ts; the reports' are captured from here
 * too (scripts/capture-report-examples.ts). The order of the requests is the order of the ids in the examples
 * (scripts/capture-examples.ts `captureAll`): keep it.
 */
import type { CapturedExamples } from '../shared/openapi/document.ts';
import { captureReportExamples } from './capture-report-examples.ts';
import type { CaptureTools } from './capture-tools.ts';

type Body = Record<string, any>;

export const NEW_CLIENT_INVOICE = {
  client: {
    first_name: 'Ada',
    last_name: 'Obi',
    email: 'ada@example.com',
    phone: '+2348012345678',
    company_name: 'Obi Ventures',
  },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [
    { item: 'Website Design', description: '5 pages', unit_cost: '50,000.00', quantity: '1' },
    { item: 'Hosting', description: '12 months', unit_cost: '2500.5', quantity: 12 },
  ],
};

/** POST /invoices: a new client's invoice (returned: the payments are made on it), options, refusals. */
export async function captureAddInvoice({ capture, withFault, inFlight }: CaptureTools): Promise<Body> {
  const created = await capture('add-invoice', 201, 'new_client', 'For a new client', { body: NEW_CLIENT_INVOICE });
  const invoice = created.data;
  const optionsInvoice = {
    client_id: String(invoice.client_id),
    due_date: '1/15/2031',
    fee_bearer: 'account',
    items: [{ item: 'Consulting', description: 'Two days of advisory work', unit_cost: 75000, quantity: '2' }],
    recipient: 'wallet',
    recipient_id: 'WAL-0042',
    merchant_ref: 'INV-2030-0001',
    metadata: { order_id: 'A-1001', priority: 2 },
    card_token: 'tok_4f9a8b7c6d5e1234',
  };
  await capture('add-invoice', 201, 'existing_client_with_options', 'For an existing client, with optional fields', {
    body: optionsInvoice,
  });
  await capture('add-invoice', 403, 'tokenization_not_enabled', 'tokenize on an account without tokenization', {
    body: { ...NEW_CLIENT_INVOICE, tokenize: 'true' },
  });
  await capture('add-invoice', 404, 'client_not_found', 'Unknown client_id', {
    body: { ...optionsInvoice, client_id: '999999', merchant_ref: undefined },
  });
  await capture('add-invoice', 409, 'duplicate_merchant_ref', 'merchant_ref already used', { body: optionsInvoice });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture('add-invoice', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', {
      body: NEW_CLIENT_INVOICE,
      headers: { 'idempotency-key': 'order-1001-invoice' },
    }),
  );
  return invoice;
}

/** POST /invoices: the Idempotency-Key refusals and the errors every body route has. */
export async function captureAddInvoiceErrors({ capture, send, commonErrors }: CaptureTools): Promise<void> {
  await capture('add-invoice', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    body: NEW_CLIENT_INVOICE,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await send('add-invoice', { body: NEW_CLIENT_INVOICE, headers: { 'idempotency-key': 'order-1002-invoice' } });
  await capture('add-invoice', 422, 'idempotency_key_reused', 'Same Idempotency-Key, different body', {
    body: { ...NEW_CLIENT_INVOICE, due_date: '12/31/2030' },
    headers: { 'idempotency-key': 'order-1002-invoice' },
  });
  await commonErrors(
    'add-invoice',
    NEW_CLIENT_INVOICE,
    {
      client: { ...NEW_CLIENT_INVOICE.client, email: 'not-an-email' },
      due_date: '02/30/2030',
      fee_bearer: 'client',
      items: [{ item: 'Hosting', description: '12 months', unit_cost: '10.005', quantity: '1' }],
    },
    'TransactWriteItemsCommand',
  );
}

/** POST /payments on `invoice`, until it is paid in full; returns the request shown as the example. */
export async function captureAddPayment(tools: CaptureTools, invoice: Body) {
  const { capture, send, withFault, inFlight } = tools;
  const payment = {
    reference_code: invoice.reference_code,
    date: tools.today,
    amount: '20,000.00',
    channel: 'BankTransfer',
  };
  await capture('add-payment', 201, 'partial_payment', 'A partial payment', { body: payment });
  await capture('add-payment', 404, 'invoice_not_found', 'Unknown reference_code', {
    body: { ...payment, reference_code: 'AAAAAAAAAAAAAAAAAAAA' },
  });
  await capture('add-payment', 409, 'amount_exceeds_balance', 'More than amount_due', {
    body: { ...payment, amount: '1,000,000.00' },
  });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture('add-payment', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', {
      body: payment,
      headers: { 'idempotency-key': 'payment-7781' },
    }),
  );
  await capture('add-payment', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    body: payment,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await send('add-payment', { body: { ...payment, amount: '1000' }, headers: { 'idempotency-key': 'payment-7782' } });
  await capture('add-payment', 422, 'idempotency_key_reused', 'Same Idempotency-Key, different body', {
    body: { ...payment, amount: '2000' },
    headers: { 'idempotency-key': 'payment-7782' },
  });
  const rest = Number(invoice.total) - 20_000 - 1_000;
  await send('add-payment', { body: { ...payment, amount: rest.toFixed(2), channel: 'Cash' } });
  await capture('add-payment', 409, 'invoice_already_paid', 'Invoice fully paid', { body: payment });
  return payment;
}

/** POST /payments: the errors every body route has, on an unpaid invoice. */
export async function captureAddPaymentErrors({ send, commonErrors }: CaptureTools, payment: Body): Promise<void> {
  const unpaid = (await send('add-invoice', { body: { ...NEW_CLIENT_INVOICE, due_date: '06/30/2031' } })).body.data;
  await commonErrors(
    'add-payment',
    { ...payment, reference_code: unpaid.reference_code },
    { reference_code: payment.reference_code, date: '13/01/2025', amount: '-5', channel: 'Card' },
    'TransactWriteItemsCommand',
  );
}

/** POST /payments/history; returns the request shown as the example. */
export async function capturePaymentHistory({ capture, commonErrors }: CaptureTools) {
  const history = { period: 'month', limit: 2 };
  const page = await capture('payment-history', 200, 'first_page', 'First page of this month (limit 2)', {
    body: history,
  });
  await capture('payment-history', 200, 'custom_range', 'A custom range with no payments', {
    body: { period: 'custom', start: '01/01/2024', end: '31/01/2024' },
  });
  await capture('payment-history', 400, 'invalid_period', 'custom without end', {
    body: { period: 'custom', start: '01/01/2024' },
  });
  await capture('payment-history', 400, 'invalid_cursor', 'Cursor of another period', {
    body: { period: 'today', cursor: page.data.next_cursor },
  });
  await commonErrors('payment-history', history, { period: 'month', limit: 0 }, 'QueryCommand');
  return history;
}

/** The local runtime's routing errors (deployed, API Gateway answers these itself), then a form-encoded invoice. */
export async function captureRoutingAndForm({ capture }: CaptureTools): Promise<string> {
  await capture('any', 404, 'route_not_found', 'Unknown path', { path: '/invoice', body: NEW_CLIENT_INVOICE });
  await capture('any', 405, 'method_not_allowed', 'Known path, other method', { path: '/invoices', method: 'GET' });
  const form = new URLSearchParams({
    'client[first_name]': 'Ada',
    'client[last_name]': 'Obi',
    'client[email]': 'ada@example.com',
    'client[phone]': '+2348012345678',
    due_date: '12/30/2030',
    fee_bearer: 'client',
    'items[0][item]': 'Website Design',
    'items[0][description]': '5 pages',
    'items[0][unit_cost]': '50,000.00',
    'items[0][quantity]': '1',
  }).toString();
  await capture('add-invoice', 201, 'form_encoded', 'The same invoice sent form-encoded (PHP SDKs)', {
    contentType: 'application/x-www-form-urlencoded',
    body: form,
  });
  return form;
}

// The routes added after the first three: invoice reads and deletes, invoice history, an invoice's latest payment,
// clients, reversals.

const invoiceBody = (email: string) => ({
  client: { first_name: 'Chidi', last_name: 'Eze', email, phone: '+2348031234567', company_name: 'Eze Foods' },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [{ item: 'Catering', description: 'Launch event, 80 guests', unit_cost: '120,000.00', quantity: '1' }],
});

/** The routes after the first three, and the reports: their request bodies, for the document's request examples. */
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
  await captureEInvoiceErrors({ capture, faultErrors }, ref, unpaid.reference_code as string);

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

/** The e-invoice answers XML (not captured); its errors: the account here has no e-mail or tax id (422), a voided one. */
async function captureEInvoiceErrors(
  { capture, faultErrors }: Pick<CaptureTools, 'capture' | 'faultErrors'>,
  ref: string,
  voided: string,
) {
  const at = (code: string) => ({ path: `/invoices/${code}/ubl` });
  await capture('invoice-ubl', 404, 'invoice_not_found', 'Unknown reference_code', at('AAAAAAAAAAAAAAAAAAAA'));
  await capture('invoice-ubl', 422, 'einvoice_incomplete', 'No e-mail or tax id on the account', at(ref));
  await faultErrors('invoice-ubl', at(ref), 'BatchGetItemCommand');
  await capture('invoice-ubl', 409, 'invoice_deleted', 'The invoice was voided', at(voided));
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
