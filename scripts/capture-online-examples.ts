/**
 * The OpenAPI examples of getting paid online (docs/getting-paid-online.md), captured against the local Paystack
 * server the capture starts: an online payment with its saved card, a client's cards and forgetting one, the card
 * token refused on a new invoice, Paystack's webhook and its refusals, and the reversal of a payment refunded whole.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createAccount } from '../shared/store/accounts.ts';
import { connectPaystack } from '../shared/store/paystack-connections.ts';
import { recurringBody } from './capture-recurring-examples.ts';
import { awsError, type CaptureTools } from './capture-tools.ts';

const invoiceBody = (email: string, extra: Record<string, unknown> = {}) => ({
  client: { first_name: 'Amaka', last_name: 'Nwosu', email, phone: '+2348023456789', company_name: 'Nwosu Textiles' },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [{ item: 'Fabric', description: '40 yards of ankara', unit_cost: '48,000.00', quantity: '1' }],
  ...extra,
});

/** `hosted_url` is on the default PUBLIC_BASE_URL (as the other examples show it): the same path on the capture's server. */
const onServer = (url: string, baseUrl: string): string => {
  const { pathname, search } = new URL(url);
  return `${baseUrl}${pathname}${search}`;
};

/** Presses the pay button of `hostedUrl` and pays at the local checkout: the return URL (not yet opened). */
async function payAtCheckout(baseUrl: string, hostedUrl: string, before?: () => Promise<unknown>): Promise<string> {
  const pressed = await fetch(`${onServer(hostedUrl, baseUrl)}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  await before?.();
  const paid = await fetch(pressed.headers.get('location')!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'choice=success_card',
    redirect: 'manual',
  });
  return onServer(paid.headers.get('location')!, baseUrl);
}

export async function captureOnlineExamples(
  tools: CaptureTools,
  { baseUrl, paystackUrl }: { baseUrl: string; paystackUrl: string },
): Promise<void> {
  const { account, secretKey: key } = await createAccount({ name: 'Nwosu Textiles Ltd', tokenizationEnabled: true });
  const paystackKey = `sk_test_${randomBytes(20).toString('hex')}`;
  const connection = (await connectPaystack(account.companyId, paystackKey))!;
  const { send } = tools;
  const invoice = (await send('add-invoice', { key, body: invoiceBody('amaka@example.com', { tokenize: 'true' }) }))
    .body.data;
  await (await fetch(await payAtCheckout(baseUrl, invoice.hosted_url))).text();
  const payment = await tools.capture('get-payment', 200, 'online_payment', 'Paid on the hosted page, card saved', {
    key,
    path: `/payments/${invoice.reference_code}`,
  });
  await captureCards(tools, key, invoice.client_id, payment.data.card_token);
  const transactions = await fetch(`${paystackUrl}/_local/transactions`, {
    headers: { authorization: `Bearer ${paystackKey}` },
  });
  const tx = ((await transactions.json()) as { data: Record<string, unknown>[] }).data[0];
  await captureWebhook(tools, connection.hookId!, paystackKey, JSON.stringify({ event: 'charge.success', data: tx }));
  await captureRefundedWhole(tools, key, baseUrl);
}

async function captureCards(tools: CaptureTools, key: string, clientId: string, cardToken: string) {
  const { capture, faultErrors } = tools;
  await capture('get-client', 200, 'client_with_cards', 'A client with a saved card', {
    key,
    path: `/clients/${clientId}`,
  });
  await capture('add-invoice', 400, 'invalid_card_token', "Another client's saved card", {
    key,
    body: invoiceBody('tobi@example.com', { card_token: cardToken }),
  });
  await capture('create-recurring-invoice', 400, 'invalid_card_token', "Another client's saved card", {
    key,
    body: recurringBody('tobi@example.com', { card_token: cardToken }),
  });
  const path = `/clients/${clientId}/cards/${cardToken}`;
  await faultErrors('forget-client-card', { key, path }, 'TransactWriteItemsCommand');
  await capture('forget-client-card', 200, 'forgotten', 'The card is forgotten', { key, path });
  await capture('forget-client-card', 404, 'card_not_found', 'No such card of this client', { key, path });
  await capture('forget-client-card', 404, 'client_not_found', 'Unknown client', {
    key,
    path: `/clients/999999/cards/${cardToken}`,
  });
}

async function captureWebhook(tools: CaptureTools, hookId: string, paystackKey: string, body: string) {
  const { capture, withFault } = tools;
  const sign = (text: string) => createHmac('sha512', paystackKey).update(text).digest('hex');
  const signed = (text: string, path = `/paystack/events/${hookId}`) => ({
    key: null,
    path,
    body: text,
    headers: { 'x-paystack-signature': sign(text) },
  });
  await capture('paystack-event', 200, 'received', 'A signed charge.success, stored', signed(body));
  await capture('paystack-event', 401, 'invalid_signature', 'Not signed with the account’s key', {
    ...signed(body),
    headers: { 'x-paystack-signature': '0'.repeat(128) },
  });
  await capture('paystack-event', 404, 'hook_not_found', 'No account has this hook id', {
    ...signed(body, '/paystack/events/AAAAAAAAAAAAAAAAAAAAAAAA'),
  });
  const large = JSON.stringify({ event: 'charge.success', padding: 'x'.repeat(260 * 1024) });
  await capture('paystack-event', 413, 'payload_too_large', 'Body over 256 KiB', signed(large));
  await withFault(
    'GetItemCommand',
    () => new Error('simulated bug'),
    () => capture('paystack-event', 500, 'internal_error', 'Unexpected failure', signed(body)),
  );
  await withFault(
    'PutItemCommand',
    () => awsError('ThrottlingException'),
    () => capture('paystack-event', 503, 'service_unavailable', 'Database throttled: not stored', signed(body)),
  );
}

/** A payment for an invoice voided while its client was at the checkout: refunded whole, and not reversible. */
async function captureRefundedWhole(tools: CaptureTools, key: string, baseUrl: string) {
  const { send, capture } = tools;
  const invoice = (await send('add-invoice', { key, body: invoiceBody('ngozi@example.com') })).body.data;
  const path = { key, path: `/invoices/${invoice.reference_code}` };
  const back = await payAtCheckout(baseUrl, invoice.hosted_url, () =>
    send('delete-invoice', { ...path, method: 'DELETE' }),
  );
  await (await fetch(back)).text();
  const history = await send('payment-history', { key, body: { period: 'today' } });
  const refunded = history.body.data.payments.find((p: { status: string }) => p.status === 'refunded');
  await capture('reverse-payment', 409, 'payment_refunded', 'A payment refunded whole', {
    key,
    path: `/payments/${refunded.id}/reversal`,
    body: { reason: 'Paid twice' },
  });
}
