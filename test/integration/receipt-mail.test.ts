/**
 * docs/getting-paid-online.md "Receipt e-mails": an account with `send_receipts` queues one receipt e-mail per
 * recorded payment, manual or online, in the payment's own transaction (a keyed retry or a duplicate Paystack word
 * adds none); the mailer sends it to the real local SES server with the amount, date, channel, what is still due and
 * the hosted link. An account without it, or a stage without a sender, queues none.
 */
import { describe, expect, it } from 'vitest';
import { deliverMailJob } from '../../shared/services/mail-delivery.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { listMailJobs } from '../../shared/store/mail.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { useLocalSes } from '../support/local-ses.ts';
import { connectedAccount, invoiceToPay, payInvoice, returnFrom, usePaystack } from '../support/online-payments.ts';

const fixture = usePaystack();

const mail = useLocalSes({ from: 'invoices@example.com' });

const receiptJobs = async (companyId: number) =>
  (await listMailJobs(companyId, 100)).filter((job) => job.receipt !== undefined);

const messagesTo = (address: string) => mail.messagesTo(address);

const pay = (key: string, reference_code: string, amount: string, idempotencyKey?: string) =>
  call('add-payment', {
    key,
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
    body: { reference_code, date: todayMonthFirst(), amount, channel: 'BankTransfer' },
  });

describe('receipt e-mails', () => {
  it('queues one per manual payment (none for a keyed retry) and sends the amount, channel, what is still due and the link', async () => {
    const { account, key } = await newAccount({ name: 'Acme Supplies' });
    await updateAccount(account.companyId, { sendReceipts: true });
    const invoice = await createInvoice(key);
    expect((await pay(key, invoice.reference_code, '20000.00', 'receipt-key-1')).status).toBe(201);
    expect((await pay(key, invoice.reference_code, '20000.00', 'receipt-key-1')).status).toBe(201);

    const [job, ...more] = await receiptJobs(account.companyId);
    expect(more).toEqual([]);
    expect(job!.receipt).toMatchObject({ amountKobo: 2_000_000, channel: 'BankTransfer', amountDueKobo: 3_000_000 });
    expect(await deliverMailJob(job!.jobId)).toEqual({ kind: 'delivered' });
    const [message, ...others] = await messagesTo(invoice.client.email);
    expect(others).toEqual([]);
    expect(message!.subject).toBe(`Receipt: ₦20,000.00 received for invoice ${invoice.number} from Acme Supplies`);
    expect(message!.text).toContain('Paid by: Bank transfer');
    expect(message!.text).toContain('Still due: ₦30,000.00');
    expect(message!.text).toContain(`View the invoice online: ${invoice.hosted_url}`);
    // The receipt leaves the invoice's mail fields (its latest send) alone.
    const shown = await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(shown.body.data.mail_status).toBe('unsent');
  });

  it('queues none when the account does not send receipts', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    expect((await pay(key, invoice.reference_code, '100.00')).status).toBe(201);
    expect(await receiptJobs(account.companyId)).toEqual([]);
  });

  it('queues one per online payment, however often Paystack says so', async () => {
    const connected = await connectedAccount(fixture);
    await updateAccount(connected.account.companyId, { sendReceipts: true });
    const { invoice, token } = await invoiceToPay(connected.key);
    const { reference } = await payInvoice(fixture, connected.secretKey, token);
    for (let i = 0; i < 3; i++) expect((await returnFrom(token, reference)).status).toBe(200);

    const [job, ...more] = await receiptJobs(connected.account.companyId);
    expect(more).toEqual([]);
    expect(job!.receipt).toMatchObject({ amountKobo: 100_000, channel: 'Card', amountDueKobo: 0 });
    expect(job!.to).toBe(invoice.client.email);
  });
});
