/**
 * `npm run --silent openapi:webhook-examples`: captures one real delivery of each webhook event type
 * into `shared/openapi/webhook-examples.json` (used by the OpenAPI `webhooks` section; docs/webhooks.md
 * "Examples" points to it). Starts an in-memory DynamoDB Local and the local HTTP server, sets an endpoint on a
 * receiver on 127.0.0.1, creates an invoice and pays it in full, deletes another, lets a third fall due (the overdue
 * sweep, which also sends its reminder), e-mails two through the local SES server (one to the simulator's bounce address),
 * pays two through the local Paystack server (one voided meanwhile and refunded), has a saved card's charge declined
 * (automatic collection), and delivers every event
 * with the real deliverer. Then run `npm run openapi`.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-webhook-examples-'));
process.env.DATA_DIR = dataDir;

const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { createLocalServer } = await import('../infra/local/server.ts');
const { useLocalDynamoDb } = await import('../infra/local/settings.ts');
const { usDate } = await import('../infra/local/banner.ts');
const { createAccount, updateAccount } = await import('../shared/store/accounts.ts');
const { listDeliveries } = await import('../shared/store/webhook-deliveries.ts');
const { deliverWebhook } = await import('../shared/services/deliver-webhook.ts');
const { webhookSet } = await import('../infra/cli/webhook-commands.ts');
const { runWakeSweep } = await import('../shared/services/wake-sweep.ts');
const { wakeSeries } = await import('../shared/services/recurring-sweep.ts');
const { getAccount } = await import('../shared/store/accounts.ts');
const { startLocalSes } = await import('../infra/local/ses-server.ts');
const { handler: mailEvents } = await import('../functions/mail-events/handler.ts');
const { deliverMailJob } = await import('../shared/services/mail-delivery.ts');
const { getMailJob, listMailJobs } = await import('../shared/store/mail.ts');
const { resetConfig } = await import('../shared/config.ts');
const { startLocalPaystack } = await import('../infra/local/paystack/server.ts');
const { connectPaystack } = await import('../shared/store/paystack-connections.ts');
const { listRefundJobs } = await import('../shared/store/refund-jobs.ts');
const { deliverRefundJob } = await import('../shared/services/refund-jobs.ts');
const { listChargeJobs } = await import('../shared/store/card-collections.ts');
const { deliverChargeJob } = await import('../shared/services/collection-charges.ts');

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(204).end();
  });
});

const database = await startDynamoDbLocal();
const server = createLocalServer({ logger: {} });
// The mailer sends through the local SES server, whose simulator reports the bounce (docs/sending-invoices.md).
const ses = await startLocalSes({ port: 0, mailDir: join(dataDir, 'mail'), onNotice: mailEvents, noticeDelayMs: 50 });
process.env.SES_ENDPOINT = ses.url;
process.env.MAIL_FROM = 'invoices@example.com';
// The local Paystack server: a payment for an invoice voided during its checkout is refunded (payment.refund_issued).
const paystack = await startLocalPaystack({ port: 0, dataDir: join(dataDir, 'paystack'), log: () => {} });
process.env.PAYSTACK_BASE_URL = paystack.url;
resetConfig();
try {
  const tableName = 'invoicing-webhook-examples';
  await ensureTable(database.endpoint, tableName);
  useLocalDynamoDb(database.endpoint, tableName);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  const { account, secretKey } = await createAccount({ name: 'Obi Ventures Ltd', tokenizationEnabled: true });
  const printed: Record<string, unknown>[] = [];
  await webhookSet.run(webhookSet.input({ 'company-id': String(account.companyId), url: receiverUrl }), {
    line: (record) => printed.push(record),
  });
  const [endpoint] = printed;
  const post = async (path: string, body: unknown, method = 'POST', expected = 201) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status !== expected) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: Record<string, any> };
  };
  const invoiceBody = {
    client: {
      first_name: 'Ada',
      last_name: 'Obi',
      email: 'ada@example.com',
      phone: '+2348012345678',
      company_name: 'Obi Ventures',
    },
    due_date: '12/30/2030',
    fee_bearer: 'client',
    items: [{ item: 'Website Design', description: '5 pages', unit_cost: '50,000.00', quantity: '1' }],
  };
  const invoice = await post('/invoices', invoiceBody);
  await post('/payments', {
    reference_code: invoice.data.reference_code,
    amount: invoice.data.total,
    channel: 'BankTransfer',
    date: usDate(new Date(), 'Africa/Lagos'),
  });
  const keyedWrong = await post('/invoices', { ...invoiceBody, due_date: '02/15/2031' });
  const wrong = await post('/payments', {
    reference_code: keyedWrong.data.reference_code,
    amount: '5,000.00',
    channel: 'Cash',
    date: usDate(new Date(), 'Africa/Lagos'),
  });
  await post(`/payments/${wrong.data.id}/reversal`, { reason: 'Recorded on the wrong invoice' }, 'POST', 200);
  const mistaken = await post('/invoices', { ...invoiceBody, due_date: '01/15/2031' });
  await post(`/invoices/${mistaken.data.reference_code}`, undefined, 'DELETE', 200);
  // Fell due last week: the wake sweep (what the scheduled function runs) notifies it, and sends the reminder of the
  // schedule's offset 7 (invoice.reminder_sent): it was sent first, as reminders go only to invoices sent once.
  await updateAccount(account.companyId, { reminderOffsets: [-3, 0, 7] });
  const lastWeek = new Date(Date.now() - 7 * 86_400_000);
  const overdue = await post('/invoices', {
    ...invoiceBody,
    issue_date: usDate(lastWeek, 'Africa/Lagos'),
    due_date: usDate(lastWeek, 'Africa/Lagos'),
  });
  await post(`/invoices/${overdue.data.reference_code}/send`, { to: 'ada@example.com' }, 'POST', 200);
  const [overdueJob] = await listMailJobs(account.companyId, 1);
  await deliverMailJob(overdueJob!.jobId);
  await runWakeSweep(new Date());
  // A recurring invoice of one period, issued by the sweep's handler on its date: recurring.completed.
  const { due_date: _none, ...template } = invoiceBody;
  const schedule = { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 14, end: { after: 1 } };
  const series = await post('/recurring-invoices', { ...template, schedule });
  const hit = { kind: 'recurring' as const, id: String(series.data.id), companyId: account.companyId, indexKey: '' };
  await wakeSeries([hit], { now: new Date('2031-01-31T12:00:00Z'), writtenAt: () => new Date(), account: getAccount });
  // E-mailed: accepted by SES (invoice.sent); then one to the simulator's bounce address (invoice.delivery_failed).
  for (const to of ['ada@example.com', 'bounce@simulator.amazonses.com']) {
    const mailed = await post('/invoices', { ...invoiceBody, due_date: '03/31/2031' });
    await post(`/invoices/${mailed.data.reference_code}/send`, { to }, 'POST', 200);
    const [job] = await listMailJobs(account.companyId, 1);
    await deliverMailJob(job!.jobId);
    if (to.startsWith('bounce')) {
      while ((await getMailJob(job!.jobId))?.state !== 'bounced') await new Promise((r) => setTimeout(r, 50));
    }
  }

  await payVoidedInvoice(account.companyId, post, baseUrl, { ...invoiceBody, due_date: '04/30/2031' });
  await declineSavedCard(account.companyId, post, baseUrl, invoiceBody);
  // A credit note on the paid invoice: all of it goes to the client's credit (credit_note.created); last, as the
  // client's next invoice would take that credit.
  await post(`/invoices/${invoice.data.reference_code}/credit-notes`, {
    reason: 'Two pages dropped from the design',
    amount: '10,000.00',
  });

  for (const delivery of (await listDeliveries(account.companyId)).reverse()) {
    const outcome = await deliverWebhook(delivery.event_id);
    if (outcome.kind !== 'delivered') throw new Error(`${delivery.type}: ${JSON.stringify(outcome)}`);
  }
  const examples: Record<string, { headers: Record<string, string>; body: unknown }> = {};
  for (const r of received) {
    const body = JSON.parse(r.body) as { type: string };
    // The first of each type (the overdue invoice's own invoice.created comes later).
    examples[body.type] ??= {
      headers: Object.fromEntries(
        ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(r.headers[h])]),
      ),
      body,
    };
  }
  const file = new URL('../shared/openapi/webhook-examples.json', import.meta.url);
  writeFileSync(file, `${JSON.stringify({ secret: endpoint!.secret, events: examples }, null, 2)}\n`);
  console.log(`wrote ${file.pathname}`);
} finally {
  server.closeAllConnections();
  receiver.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => receiver.close(() => r()));
  await ses.stop();
  await paystack.stop();
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);

type Post = (path: string, body: unknown, method?: string, expected?: number) => Promise<{ data: Record<string, any> }>;

/** Presses the pay button of an invoice and pays with `choice` at the local checkout, then returns from it. */
async function payAtCheckout(baseUrl: string, hostedUrl: string, choice: string) {
  const hosted = new URL(hostedUrl);
  const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } } as const;
  const pressed = await fetch(`${baseUrl}${hosted.pathname}/pay`, { ...form, body: '', redirect: 'manual' });
  const paid = await fetch(pressed.headers.get('location')!, { ...form, body: `choice=${choice}`, redirect: 'manual' });
  const back = new URL(paid.headers.get('location')!);
  await (await fetch(`${baseUrl}${back.pathname}${back.search}`)).text();
}

/**
 * A client's card saved by a `tokenize` invoice paid at the checkout; an invoice due today collected with it, its
 * charge declined by the local Paystack server: `invoice.payment_failed`.
 */
async function declineSavedCard(companyId: number, post: Post, baseUrl: string, body: Record<string, unknown>) {
  const dueToday = usDate(new Date(), 'Africa/Lagos');
  const tokenized = await post('/invoices', { ...body, due_date: dueToday, tokenize: 'true' });
  await payAtCheckout(baseUrl, tokenized.data.hosted_url as string, 'success_card');
  const payment = await post(`/payments/${tokenized.data.reference_code}`, undefined, 'GET', 200);
  const local = (path: string, init: RequestInit = {}) =>
    fetch(`${process.env.PAYSTACK_BASE_URL}${path}`, {
      ...init,
      headers: { authorization: `Bearer sk_test_${'5'.repeat(40)}`, 'content-type': 'application/json' },
    }).then((response) => response.json() as Promise<{ data: any }>);
  const transactions = (await local('/_local/transactions')).data as any[];
  const code = transactions.find((tx) => tx.status === 'success')!.authorization.authorization_code;
  await local(`/_local/authorizations/${code}/decline`, { method: 'POST', body: JSON.stringify({ count: 1 }) });
  const { client, ...rest } = body;
  await post('/invoices', {
    ...rest,
    client_id: String(tokenized.data.client_id),
    due_date: dueToday,
    card_token: payment.data.card_token,
  });
  await runWakeSweep(new Date());
  const [job] = await listChargeJobs(companyId, 1);
  const outcome = await deliverChargeJob(job!.jobId);
  if (outcome.kind !== 'delivered') throw new Error(`charge job: ${JSON.stringify(outcome)}`);
}

/**
 * An invoice voided while its client is at Paystack's checkout: the payment comes back refunded whole, and its refund
 * job, delivered, issues `payment.refund_issued`.
 */
async function payVoidedInvoice(
  companyId: number,
  post: (path: string, body: unknown, method?: string, expected?: number) => Promise<{ data: Record<string, any> }>,
  baseUrl: string,
  body: Record<string, unknown>,
) {
  await connectPaystack(companyId, `sk_test_${'5'.repeat(40)}`);
  const invoice = await post('/invoices', body);
  const hosted = new URL(invoice.data.hosted_url as string);
  const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } } as const;
  const pressed = await fetch(`${baseUrl}${hosted.pathname}/pay`, { ...form, body: '', redirect: 'manual' });
  await post(`/invoices/${invoice.data.reference_code}`, undefined, 'DELETE', 200);
  const paid = await fetch(pressed.headers.get('location')!, {
    ...form,
    body: 'choice=success_card',
    redirect: 'manual',
  });
  const back = new URL(paid.headers.get('location')!);
  await (await fetch(`${baseUrl}${back.pathname}${back.search}`)).text();
  const [job] = await listRefundJobs(companyId, 1);
  const outcome = await deliverRefundJob(job!.jobId);
  if (outcome.kind !== 'delivered') throw new Error(`refund job: ${JSON.stringify(outcome)}`);
}
