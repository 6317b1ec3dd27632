/**
 * The OpenAPI examples of the first three routes (add invoice, add payment, payment history), the local runtime's
 * routing errors and the form-encoded invoice, captured with the tools of scripts/capture-tools.ts. The order of the
 * requests is the order of the ids in the examples: keep it.
 */
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
