/**
 * Bank transfers that match themselves (docs/bank-transfers.md): a client's virtual account opened through the local
 * Paystack, transfers into it simulated there and sent back as signed `charge.success` webhooks, then processed —
 * narration, exact-amount and oldest-due matching, several invoices in one transfer, the rest as credit, credit applied
 * to the next invoice and refunded, each reference recorded once — through the invoice function and the services on
 * DynamoDB Local. Σ payments + credit = Σ transfers, to the kobo.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { migrateCreditListing } from '../../infra/cli/migrations/credit-listing.ts';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { resetConfig } from '../../shared/config.ts';
import { renderInvoicePdf } from '../../shared/render/engines.ts';
import { invoiceEmailContent } from '../../shared/render/invoice-email.ts';
import { accountInvoiceDocument } from '../../shared/services/invoice-document.ts';
import { processProviderEvent } from '../../shared/services/provider-events.ts';
import { recordTransfer, transferStep } from '../../shared/services/record-transfer.ts';
import { deliverRefundJob } from '../../shared/services/refund-jobs.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { batchGet } from '../../shared/store/batch.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { listMailJobs } from '../../shared/store/mail.ts';
import { listRefundJobs, readRefundJob } from '../../shared/store/refund-jobs.ts';
import { transferFrom, transferKey } from '../../shared/store/transfers.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, createInvoice, newAccount, uniqueEmail } from '../support/api.ts';
import { chargeSuccessEvent, connectedAccount, sendWebhook, sign, usePaystack } from '../support/online-payments.ts';
import { pdfText } from '../support/pdf-text.ts';

const fixture = usePaystack();

/** A transfer as Paystack verified it, for recording directly (no webhook: the steps themselves are under test). */
const transferRequest = (companyId: number, clientId: number, reference: string, amountKobo: number) => ({
  companyId,
  clientId,
  charge: {
    reference,
    status: 'success',
    amountKobo,
    currency: 'NGN',
    transactionId: `9${reference.length}${amountKobo}`,
    channel: 'dedicated_nuban',
    gatewayResponse: 'Approved',
    message: 'Approved',
    paidAt: null,
    feesKobo: 0,
    transfer: {
      customerCode: 'CUS_test',
      receiverAccountNumber: '9930000001',
      senderName: 'Chidi Okeke',
      senderBank: 'Access Bank',
      senderAccountNumber: '0123456789',
      narration: 'payment',
    },
  },
});

/** The transfer's item as its recording left it. */
async function transferRecordOf(companyId: number, reference: string) {
  return transferFrom(await batchGet([transferKey(companyId, reference)]), companyId, reference);
}

/** A money string in kobo (`"1,000.50"` → 100050). */
const parseKobo = (money: string): number => Math.round(Number(money.replace(/,/g, '')) * 100);

type Connected = Awaited<ReturnType<typeof connectedAccount>>;

async function newClient(key: string) {
  const body = { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' };
  const created = await call('add-client', { key, body });
  expect(created.status).toBe(201);
  return created.body.data as { id: number };
}

const openAccount = (key: string, clientId: number) =>
  call('create-virtual-account', { key, pathParameters: { id: String(clientId) } });

const clientOf = async (key: string, clientId: number) =>
  (await call('get-client', { key, pathParameters: { id: String(clientId) } })).body.data;

const invoiceFor = (key: string, clientId: number, amount: string, dueDate: string) =>
  createInvoice(key, {
    client: undefined,
    client_id: clientId,
    due_date: dueDate,
    items: [{ item: 'Supplies', description: 'One lot', unit_cost: amount, quantity: '1' }],
  });

const invoiceOf = async (key: string, referenceCode: string) =>
  (await call('get-invoice', { key, pathParameters: { reference_code: referenceCode } })).body.data;

/** A transfer into the account at the local Paystack, its webhook sent and processed: the processing's result. */
async function transfer(connected: Connected, accountNumber: string, amount: number, narration = 'payment') {
  const sent = await connected.paystack.post('/_local/transfers', {
    account_number: accountNumber,
    amount,
    sender_name: 'Chidi Okeke',
    sender_bank: 'Access Bank',
    sender_account_number: '0123456789',
    narration,
  });
  expect(sent.status).toBe(200);
  const body = await chargeSuccessEvent(connected.paystack, sent.body.data.reference);
  const stored = await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
  expect(stored.status).toBe(200);
  return { eventId: stored.body.data.event_id as string, reference: sent.body.data.reference as string, body };
}

async function paymentsOf(key: string) {
  const history = await call('payment-history', { key, body: { period: 'today' } });
  return history.body.data.payments as Record<string, any>[];
}

async function clientWithAccount(connected: Connected) {
  const client = await newClient(connected.key);
  const opened = await openAccount(connected.key, client.id);
  expect(opened.status).toBe(200);
  return { clientId: client.id, accountNumber: opened.body.data.virtual_account.account_number as string };
}

describe('POST /clients/{id}/virtual-account', () => {
  it('opens the account once: the same account again, and under concurrent calls', async () => {
    const connected = await connectedAccount(fixture);
    const client = await newClient(connected.key);
    const answers = await Promise.all([1, 2, 3].map(() => openAccount(connected.key, client.id)));
    const numbers = new Set(answers.map((answer) => answer.body.data.virtual_account?.account_number));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(numbers.size).toBe(1);
    expect(answers[0]!.body).toMatchObject({
      message: 'Virtual account ready.',
      data: { id: client.id, credit_balance: '0.00', virtual_account: { bank_name: 'Wema Bank' } },
    });
    const again = await openAccount(connected.key, client.id);
    expect(again.body.data.virtual_account).toEqual(answers[0]!.body.data.virtual_account);
    expect((await clientOf(connected.key, client.id)).virtual_account).toEqual(again.body.data.virtual_account);
  });

  it('not connected: 409 payments_not_connected; another account’s client: 404; nothing written', async () => {
    const { key } = await newAccount();
    const client = await newClient(key);
    const refused = await openAccount(key, client.id);
    expect([refused.status, refused.body.code]).toEqual([409, 'payments_not_connected']);
    expect((await clientOf(key, client.id)).virtual_account).toBeNull();
    const connected = await connectedAccount(fixture);
    const foreign = await openAccount(connected.key, client.id);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'client_not_found']);
  });
});

describe('"Pay by transfer to …" on what the client sees', () => {
  it('the hosted page, the PDF and the e-mail show the client’s account above the manual instructions', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const invoice = await invoiceFor(connected.key, clientId, '400.00', '12/30/2030');
    const line = `Pay by transfer to Wema Bank ${accountNumber} (PAYSTACK/Ada Obi)`;
    const token = new URL(invoice.hosted_url).pathname.split('/')[2]!;
    const commands: string[] = [];
    const remove = dynamoHooks.add({ before: (c) => void commands.push(c.command) });
    const page = await call('hosted-invoice-page', { pathParameters: { token } }).finally(remove);
    expect(page.rawBody).toContain(line);
    // The link names the client: its virtual account comes in the invoice's batch, not in a third read.
    expect(commands).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    const context = { account: connected.account } as Parameters<typeof accountInvoiceDocument>[0];
    const document = await accountInvoiceDocument(context, invoice.reference_code);
    expect(document.payByTransfer).toBe(line);
    expect(pdfText(await renderInvoicePdf(document)).replace(/\s+/g, ' ')).toContain(line);
    const mail = invoiceEmailContent(document);
    expect(mail.text).toContain(`How to pay:\n${line}`);
    expect(mail.html).toContain(line);
    const other = await invoiceFor(connected.key, (await newClient(connected.key)).id, '10.00', '12/30/2030');
    const without = await accountInvoiceDocument(context, other.reference_code);
    expect(without.payByTransfer).toBeUndefined();
  });
});

describe('a transfer into a virtual account', () => {
  it('pays the invoice its narration names first, then the oldest due; the rest is credit; once per reference', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const older = await invoiceFor(connected.key, clientId, '1000.00', '12/01/2030');
    const named = await invoiceFor(connected.key, clientId, '1000.00', '12/30/2030');
    const sent = await transfer(connected, accountNumber, 250_000, `for ${named.reference_code} thanks`);
    expect(await processProviderEvent(sent.eventId)).toMatchObject({ state: 'recorded' });
    expect(await invoiceOf(connected.key, named.reference_code)).toMatchObject({ payment_status: 'paid' });
    expect(await invoiceOf(connected.key, older.reference_code)).toMatchObject({ payment_status: 'paid' });
    const payments = await paymentsOf(connected.key);
    expect(payments.map((payment) => [payment.invoice.reference_code, payment.allocation]).sort()).toEqual(
      [
        [named.reference_code, 'narration'],
        [older.reference_code, 'oldest_due'],
      ].sort(),
    );
    for (const payment of payments)
      expect(payment).toMatchObject({
        channel: 'BankTransfer',
        referrer: sent.reference,
        sender: { name: 'Chidi Okeke', bank: 'Access Bank', account_number: '6789' },
      });
    expect(new Set(payments.map((payment) => payment.payment_id)).size).toBe(1);
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('500.00');
    // The same event again (its stored outcome), and the same transfer's event delivered twice: nothing more.
    expect(await processProviderEvent(sent.eventId)).toMatchObject({ state: 'recorded' });
    const twice = await sendWebhook(connected.hookId, sent.body, sign(sent.body, connected.secretKey));
    expect(await processProviderEvent(twice.body.data.event_id)).toMatchObject({ state: 'duplicate' });
    expect(await paymentsOf(connected.key)).toHaveLength(2);
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('500.00');
  });

  it('matches the invoice whose amount due equals the amount; less than it is a partial payment', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const first = await invoiceFor(connected.key, clientId, '1000.00', '12/01/2030');
    const exact = await invoiceFor(connected.key, clientId, '750.00', '12/30/2030');
    await processProviderEvent((await transfer(connected, accountNumber, 75_000)).eventId);
    expect(await invoiceOf(connected.key, exact.reference_code)).toMatchObject({ payment_status: 'paid' });
    expect((await invoiceOf(connected.key, first.reference_code)).amount_paid).toBe('0.00');
    expect((await paymentsOf(connected.key))[0]).toMatchObject({ allocation: 'exact_amount', amount: '750.00' });
    await processProviderEvent((await transfer(connected, accountNumber, 40_000)).eventId);
    expect(await invoiceOf(connected.key, first.reference_code)).toMatchObject({ amount_due: '600.00' });
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('0.00');
  });

  it('settles three invoices in one transaction: one step, the three payments and the credit together', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    // Two due the same day: their payments add to the same aging rows, in one transaction.
    const invoices = [
      await invoiceFor(connected.key, clientId, '100.00', '12/01/2030'),
      await invoiceFor(connected.key, clientId, '200.00', '12/01/2030'),
      await invoiceFor(connected.key, clientId, '300.00', '12/02/2030'),
    ];
    const sent = await transfer(connected, accountNumber, 65_000);
    expect(await processProviderEvent(sent.eventId)).toMatchObject({ state: 'recorded' });
    const recorded = await transferRecordOf(connected.account.companyId, sent.reference);
    const payments = await paymentsOf(connected.key);
    // One step: the transfer's item was written once, by the transaction that holds every payment and the credit.
    expect(recorded).toMatchObject({ step: 1, done: true, creditKobo: 5_000, allocatedKobo: 65_000 });
    expect([...recorded!.paymentIds].sort()).toEqual(payments.map((payment) => payment.id).sort());
    expect(payments.map((payment) => payment.invoice.reference_code).sort()).toEqual(
      invoices.map((invoice) => invoice.reference_code).sort(),
    );
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('50.00');
    const aging = await call('aging-report', { key: connected.key, body: {} });
    // The merged aging rows: nothing outstanding, no invoice open; the client's row holds its unapplied credit.
    expect(aging.body.data).toMatchObject({
      total_outstanding: '0.00',
      counts: { current: 0 },
      total_unapplied_credit: '50.00',
      clients: [{ client_id: clientId, total_outstanding: '0.00', unapplied_credit: '50.00' }],
    });
  });

  it('settles more invoices than one transaction holds, in steps of eight: Σ payments + credit = the transfer', async () => {
    const connected = await connectedAccount(fixture);
    await updateAccount(connected.account.companyId, { sendReceipts: true });
    process.env.MAIL_FROM = 'invoices@example.com';
    resetConfig();
    try {
      const { clientId, accountNumber } = await clientWithAccount(connected);
      // Sixteen: the last step holds eight payments, each with its receipt e-mail, and the credit (8 × 11 + 6 items).
      for (let day = 1; day <= 16; day++)
        await invoiceFor(connected.key, clientId, '100.00', `12/${String(day).padStart(2, '0')}/2030`);
      const sent = await transfer(connected, accountNumber, 170_000);
      await processProviderEvent(sent.eventId);
      const payments = await paymentsOf(connected.key);
      const paid = payments.reduce((sum, payment) => sum + parseKobo(payment.amount), 0);
      const credit = parseKobo((await clientOf(connected.key, clientId)).credit_balance);
      expect(payments).toHaveLength(16);
      expect([paid, credit, paid + credit]).toEqual([160_000, 10_000, 170_000]);
      expect(await transferRecordOf(connected.account.companyId, sent.reference)).toMatchObject({
        step: 2,
        done: true,
      });
      const receipts = (await listMailJobs(connected.account.companyId, 50)).filter((job) => job.receipt !== undefined);
      expect(receipts).toHaveLength(16);
    } finally {
      delete process.env.MAIL_FROM;
      resetConfig();
    }
  });

  it('a crash between steps: processing again goes on from the step the item holds; racing processings record once', async () => {
    const connected = await connectedAccount(fixture);
    const { companyId } = connected.account;
    const { clientId } = await clientWithAccount(connected);
    for (let day = 1; day <= 12; day++)
      await invoiceFor(connected.key, clientId, '100.00', `12/${String(day).padStart(2, '0')}/2030`);
    const request = transferRequest(companyId, clientId, 'crash-1', 130_000);
    // The first processing commits one step (eight invoices) and stops, as a process killed after it would.
    expect(await transferStep(request)).toMatchObject({ done: false, transfer: { step: 1 } });
    expect(await paymentsOf(connected.key)).toHaveLength(8);
    // Processed again, three times at once: the rest once, from where the item says.
    const again = await Promise.all([recordTransfer(request), recordTransfer(request), recordTransfer(request)]);
    const payments = await paymentsOf(connected.key);
    expect(payments).toHaveLength(12);
    expect(new Set(payments.map((payment) => payment.id)).size).toBe(12);
    expect(again.map((result) => result.paymentIds.length)).toEqual([12, 12, 12]);
    expect(await transferRecordOf(companyId, 'crash-1')).toMatchObject({ step: 2, done: true, creditKobo: 10_000 });
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('100.00');
    expect(await recordTransfer(request)).toMatchObject({ outcome: 'already_recorded' });
  });

  it('aging shows each client’s unapplied credit and its total, in JSON and CSV, until it is applied', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const owing = await newClient(connected.key);
    await invoiceFor(connected.key, owing.id, '300.00', '12/01/2030');
    await processProviderEvent((await transfer(connected, accountNumber, 12_500)).eventId);
    const aging = async (body: Record<string, unknown>) =>
      (await call('aging-report', { key: connected.key, body })).body.data;

    const whole = await aging({});
    expect(whole).toMatchObject({ total_outstanding: '300.00', total_unapplied_credit: '125.00' });
    expect(
      whole.clients.map((row: Record<string, any>) => [row.client_id, row.total_outstanding, row.unapplied_credit]),
    ).toEqual([
      [owing.id, '300.00', '0.00'],
      [clientId, '0.00', '125.00'],
    ]);
    expect(await aging({ client_id: clientId })).toMatchObject({
      total_outstanding: '0.00',
      total_unapplied_credit: '125.00',
      clients: [{ client_id: clientId, unapplied_credit: '125.00' }],
    });
    expect(await aging({ client_id: owing.id })).toMatchObject({ total_unapplied_credit: '0.00' });
    const csv = await call('aging-report', { key: connected.key, body: {}, headers: { accept: 'text/csv' } });
    const [header, , creditRow] = String(csv.rawBody).trim().split(/\r?\n/);
    expect(header!.split(',').at(-1)).toBe('unapplied_credit');
    expect(creditRow!.split(',').at(-1)).toBe('125.00');

    // An invoice of the client takes the credit: its listing item goes, and aging shows none.
    await invoiceFor(connected.key, clientId, '200.00', '12/05/2030');
    const after = await aging({});
    expect(after).toMatchObject({ total_outstanding: '375.00', total_unapplied_credit: '0.00' });
    expect(after.clients.map((row: Record<string, any>) => row.unapplied_credit)).toEqual(['0.00', '0.00']);
  });

  it('credit recorded before the credit listing is listed by data:migrate, once', async () => {
    const connected = await connectedAccount(fixture);
    const { companyId } = connected.account;
    const { clientId, accountNumber } = await clientWithAccount(connected);
    await processProviderEvent((await transfer(connected, accountNumber, 7_500)).eventId);
    // As a balance written before the listing existed: no listing item.
    await documentClient().send(
      new DeleteCommand({ TableName: tableName(), Key: keys.creditListing(companyId, clientId) }),
    );
    const unlisted = await call('aging-report', { key: connected.key, body: {} });
    expect(unlisted.body.data.total_unapplied_credit).toBe('0.00');
    expect(await migrateCreditListing()).toBeGreaterThanOrEqual(1);
    const listed = await call('aging-report', { key: connected.key, body: {} });
    expect(listed.body.data).toMatchObject({
      total_unapplied_credit: '75.00',
      clients: [{ unapplied_credit: '75.00' }],
    });
    expect(await migrateCreditListing()).toBe(0);
  });

  it('credit pays the next invoice (channel Credit) and is refunded; more than the credit is refused', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const sent = await transfer(connected, accountNumber, 100_000);
    await processProviderEvent(sent.eventId);
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('1000.00');
    const next = await invoiceFor(connected.key, clientId, '400.00', '12/30/2030');
    expect(await invoiceOf(connected.key, next.reference_code)).toMatchObject({ payment_status: 'paid' });
    expect((await paymentsOf(connected.key)).find((p) => p.channel === 'Credit')).toMatchObject({ amount: '400.00' });
    const path = { id: String(clientId) };
    const tooMuch = await call('refund-client-credit', {
      key: connected.key,
      pathParameters: path,
      body: { amount: '600.01' },
    });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([409, 'amount_exceeds_credit']);
    const refunded = await call('refund-client-credit', {
      key: connected.key,
      pathParameters: path,
      body: { amount: '250' },
    });
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({
      client: { id: clientId, credit_balance: '350.00' },
      refund: {
        amount: '250.00',
        through_paystack: [{ reference: sent.reference, amount: '250.00' }],
        by_hand: '0.00',
      },
    });
    // client.credit_changed once per change, oldest first: received, applied, refunded.
    const deliveries = (await listDeliveries(connected.account.companyId)).filter(
      (d) => d.type === 'client.credit_changed',
    );
    const bodies = await Promise.all(
      deliveries.reverse().map(async (d) => JSON.parse((await getEvent(d.event_id))!.body)),
    );
    expect(bodies.map((b) => b.data)).toEqual([
      {
        client_id: String(clientId),
        credit_balance: '1000.00',
        change: { kind: 'received', amount: '1000.00', reference: sent.reference },
      },
      {
        client_id: String(clientId),
        credit_balance: '600.00',
        change: { kind: 'applied', amount: '400.00', reference: null },
      },
      {
        client_id: String(clientId),
        credit_balance: '350.00',
        change: { kind: 'refunded', amount: '250.00', reference: null },
      },
    ]);
    const statement = await call('client-statement', {
      key: connected.key,
      pathParameters: path,
      body: { period: 'today' },
    });
    expect(statement.status, statement.rawBody).toBe(200);
    expect(statement.body.data.credit).toMatchObject({
      received: '1000.00',
      applied: '400.00',
      refunded: '250.00',
      balance: '350.00',
    });
    expect(statement.body.data.credit.lines.map((line: { kind: string }) => line.kind)).toEqual([
      'received',
      'applied',
      'refunded',
    ]);
    const bad = await call('refund-client-credit', {
      key: connected.key,
      pathParameters: path,
      body: { amount: '-1' },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_failed']);
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('350.00');
  });

  it('concurrent refunds never take more than the credit: the balance stays exact', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    await processProviderEvent((await transfer(connected, accountNumber, 100_000)).eventId);
    const path = { id: String(clientId) };
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        call('refund-client-credit', { key: connected.key, pathParameters: path, body: { amount: '300' } }),
      ),
    );
    const ok = answers.filter((answer) => answer.status === 200).length;
    expect(ok).toBe(3);
    expect(answers.filter((answer) => answer.body.code === 'amount_exceeds_credit')).toHaveLength(1);
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('100.00');
  });

  it('a credit refund is delivered by the refund worker through Paystack and changes no payment', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const invoice = await invoiceFor(connected.key, clientId, '300.00', '12/30/2030');
    const sent = await transfer(connected, accountNumber, 100_000);
    await processProviderEvent(sent.eventId);
    const paymentsBefore = await paymentsOf(connected.key);
    const invoiceBefore = await invoiceOf(connected.key, invoice.reference_code);
    const refunded = await call('refund-client-credit', {
      key: connected.key,
      pathParameters: { id: String(clientId) },
      body: { amount: '500' },
    });
    expect(refunded.status).toBe(200);
    const [job, ...more] = await listRefundJobs(connected.account.companyId, 10);
    expect(more).toEqual([]);
    expect(job).toMatchObject({ reason: 'credit', paymentId: 0, amountKobo: 50_000, state: 'queued' });
    expect(await deliverRefundJob(job!.jobId)).toEqual({ kind: 'delivered' });
    expect(await deliverRefundJob(job!.jobId)).toEqual({ kind: 'skipped', reason: 'already issued' });
    expect(await readRefundJob(job!.jobId)).toMatchObject({ state: 'issued', refundId: expect.any(String) });
    const [refund, ...others] = (await connected.paystack.get('/_local/refunds')).body.data;
    expect(others).toEqual([]);
    expect(refund).toMatchObject({ amount: 50_000, transaction_reference: sent.reference });
    expect(refund.merchant_note).toContain(job!.jobId);
    expect(await paymentsOf(connected.key)).toEqual(paymentsBefore);
    expect(await invoiceOf(connected.key, invoice.reference_code)).toEqual(invoiceBefore);
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('200.00');
  });

  it('a credit refund Paystack refuses for good gives the credit back: never in neither place', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const sent = await transfer(connected, accountNumber, 100_000);
    await processProviderEvent(sent.eventId);
    const path = { id: String(clientId) };
    const refunded = await call('refund-client-credit', {
      key: connected.key,
      pathParameters: path,
      body: { amount: '400' },
    });
    expect([refunded.status, refunded.body.data?.client.credit_balance]).toEqual([200, '600.00']);
    // Meanwhile the whole transfer was refunded from Paystack's dashboard: the job's refund is refused.
    const byDashboard = await connected.paystack.post('/refund', { transaction: sent.reference });
    expect(byDashboard.status, JSON.stringify(byDashboard.body)).toBe(200);
    const [job] = await listRefundJobs(connected.account.companyId, 10);
    expect(await deliverRefundJob(job!.jobId)).toEqual({ kind: 'failed' });
    expect(await deliverRefundJob(job!.jobId)).toEqual({ kind: 'skipped', reason: 'already failed' });
    expect(await readRefundJob(job!.jobId)).toMatchObject({ state: 'failed', clientId });
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('1000.00');
    const deliveries = (await listDeliveries(connected.account.companyId)).filter(
      (d) => d.type === 'client.credit_changed',
    );
    const changes = await Promise.all(
      deliveries.reverse().map(async (d) => JSON.parse((await getEvent(d.event_id))!.body).data.change),
    );
    expect(changes).toEqual([
      { kind: 'received', amount: '1000.00', reference: sent.reference },
      { kind: 'refunded', amount: '400.00', reference: null },
      { kind: 'refund_failed', amount: '400.00', reference: sent.reference },
    ]);
    const statement = await call('client-statement', {
      key: connected.key,
      pathParameters: path,
      body: { period: 'today' },
    });
    expect(statement.body.data.credit).toMatchObject({ received: '1000.00', refunded: '0.00', balance: '1000.00' });
  });

  it('every client answer carries the credit and the virtual account: list, add (again), update, delete', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    await processProviderEvent((await transfer(connected, accountNumber, 12_345)).eventId);
    const banking = {
      credit_balance: '123.45',
      virtual_account: expect.objectContaining({ account_number: accountNumber }),
    };
    const { key } = connected;
    const listed = await call('list-clients', { key, query: {} });
    expect(listed.body.data.clients).toEqual([expect.objectContaining({ id: clientId, ...banking })]);
    const email = (await clientOf(key, clientId)).email;
    const again = await call('add-client', {
      key,
      body: { first_name: 'A', last_name: 'B', email, phone: '+2348012345678' },
    });
    expect([again.status, again.body.data]).toEqual([200, expect.objectContaining(banking)]);
    const fresh = await newClient(key);
    expect(await clientOf(key, fresh.id)).toMatchObject({ credit_balance: '0.00', virtual_account: null });
    const path = { id: String(clientId) };
    const updated = await call('update-client', { key, pathParameters: path, body: { address: '1 Marina, Lagos' } });
    expect(updated.body.data).toMatchObject(banking);
    const deleted = await call('delete-client', { key, pathParameters: path });
    expect(deleted.body.data).toMatchObject(banking);
  });

  it('a transfer after the client was deleted still pays its open invoices and keeps the rest as its credit', async () => {
    const connected = await connectedAccount(fixture);
    const { clientId, accountNumber } = await clientWithAccount(connected);
    const removed = await call('delete-client', { key: connected.key, pathParameters: { id: String(clientId) } });
    expect(removed.status).toBe(200);
    await processProviderEvent((await transfer(connected, accountNumber, 20_000)).eventId);
    expect((await clientOf(connected.key, clientId)).credit_balance).toBe('200.00');
  });
});
