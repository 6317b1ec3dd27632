/**
 * Contract test. Every `call()` of every test checks its response against the OpenAPI document
 * (test/support/contract.ts); this file makes sure that check sees every documented outcome: it sends,
 * per operation, one request for each documented status and error code (500, 503 and the in-flight 409
 * through injected DynamoDB faults), then asserts that nothing documented was left unexercised.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { type DynamoCall, dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { withEnvironment } from '../../infra/tools/environment.ts';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { ROUTES, type RouteName } from '../../shared/routes.ts';
import { wakeSeries } from '../../shared/services/recurring-sweep.ts';
import { getAccount, updateAccount } from '../../shared/store/accounts.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { DEFAULT_PREFERRED_BANK, setPaystackPreferredBank } from '../../shared/store/paystack-connections.ts';
import { type CallOptions, call, createInvoice, invoiceBody, newAccount, todayMonthFirst } from '../support/api.ts';
import { contractDocument, contractViolations, seenResponses } from '../support/contract.ts';
import { dayOf } from '../support/days.ts';
import { seedLedgerLines } from '../support/ledger-seed.ts';
import {
  connectedAccount,
  invoiceToPay,
  payAtCheckout,
  payInvoice,
  pressPay,
  referenceOfCheckout,
  returnFrom,
  sendWebhook,
  sign,
  transferIntoVirtualAccount,
  usePaystack,
} from '../support/online-payments.ts';

const paystack = usePaystack();

const awsError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra });

function fault(command: string, make: (call: DynamoCall) => Error) {
  return dynamoHooks.add({
    before(c) {
      if (c.command === command) throw make(c);
    },
  });
}

const inFlight = (c: DynamoCall) => {
  const items = (c.input.TransactItems as unknown[]) ?? [];
  return awsError('TransactionCanceledException', {
    CancellationReasons: items.map((_, i) => ({ Code: i === items.length - 1 ? 'TransactionConflict' : 'None' })),
  });
};

async function expectStatus(route: RouteName, options: CallOptions, status: number, code?: string) {
  const result = await call(route, options); // throws on a contract violation
  expect(result.status, result.rawBody).toBe(status);
  if (code) expect(result.body.code).toBe(code);
  return result;
}

/** The outcomes every operation with a body shares. `write` is the DynamoDB command a fault is injected into. */
async function commonOutcomes(
  route: RouteName,
  key: string,
  valid: unknown,
  invalid: unknown,
  write: string,
  extra: CallOptions = {},
  read = 'BatchGetItemCommand',
) {
  await expectStatus(route, { ...extra, key, body: invalid }, 400, 'validation_failed');
  await expectStatus(route, { ...extra, key, body: '{"a": ' }, 400, 'invalid_json');
  await expectStatus(route, { ...extra, key, body: { pad: 'x'.repeat(70_000) } }, 413, 'payload_too_large');
  await expectStatus(
    route,
    { ...extra, key, body: '<a/>', contentType: 'application/xml' },
    415,
    'unsupported_media_type',
  );
  await faultOutcomes(route, key, { ...extra, body: valid }, write, read);
}

/** 401, and the 500 / 504 / 503 of injected faults, shared by every operation (`read`: a write route's read). */
async function faultOutcomes(
  route: RouteName,
  key: string,
  request: CallOptions,
  write: string,
  read = 'BatchGetItemCommand',
) {
  await expectStatus(route, { ...request, key: undefined }, 401, 'invalid_api_key');
  await expectStatus(route, { ...request, key: `sk_${'x'.repeat(40)}` }, 401, 'invalid_api_key');
  // A bug on a read is a plain 500; on a transaction the outcome is unknown (504, below).
  let remove = fault(write === 'TransactWriteItemsCommand' ? read : write, () => new Error('simulated bug'));
  await expectStatus(route, { ...request, key }, 500, 'internal_error').finally(remove);
  if (write === 'TransactWriteItemsCommand') {
    remove = fault(write, () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const unknown = await expectStatus(route, { ...request, key, budgetMs: 2_500 }, 504, 'outcome_unknown').finally(
      remove,
    );
    expect(unknown.headers['retry-after']).toBeUndefined();
  }
  remove = fault(write, () => awsError('ThrottlingException'));
  const unavailable = await expectStatus(route, { ...request, key }, 503, 'service_unavailable').finally(remove);
  expect(unavailable.headers['retry-after']).toBe('1');
}

afterEach(() => dynamoHooks.clear());

/** An invoice whose client has no e-mail address (data from before addresses were required). */
async function clientlessInvoice(key: string): Promise<string> {
  const invoice = await createInvoice(key);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.invoiceBody(invoice.reference_code),
      UpdateExpression: 'SET #client.email = :blank',
      ExpressionAttributeNames: { '#client': 'client' },
      ExpressionAttributeValues: { ':blank': '' },
    }),
  );
  return invoice.reference_code;
}

let crowded: Promise<CallOptions> | undefined;

/**
 * A client whose statement today has more lines than a statement may (5,000), of an account of its own, with the
 * statement's body and path: seeded once for the statement and its send (5,001 ledger lines are most of their time).
 */
function crowdedStatement(): Promise<CallOptions> {
  crowded ??= (async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    await seedLedgerLines(account.companyId, invoice.client.id, dayOf(0).iso, 5001);
    return { key, pathParameters: { id: String(invoice.client.id) }, body: { period: 'today' } };
  })();
  return crowded;
}

/** A client without an e-mail address (data from before addresses were required): the send's body and path. */
async function addresslessClient(key: string, companyId: number): Promise<CallOptions> {
  const invoice = await createInvoice(key);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.client(companyId, invoice.client.id),
      UpdateExpression: 'SET email = :blank',
      ExpressionAttributeValues: { ':blank': '' },
    }),
  );
  return { key, pathParameters: { id: String(invoice.client.id) }, body: { period: 'today' } };
}

describe('contract: every documented outcome, validated against openapi.json', () => {
  it('POST /invoices', async () => {
    const { key } = await newAccount();
    const body = invoiceBody();
    const created = await expectStatus('add-invoice', { key, body }, 201);
    const form =
      'client_id=' +
      created.body.data.client_id +
      '&due_date=12/30/2030&fee_bearer=client&items[0][item]=A&items[0][description]=B&items[0][unit_cost]=1,000.00&items[0][quantity]=2';
    await expectStatus('add-invoice', { key, body: form, contentType: 'application/x-www-form-urlencoded' }, 201);
    const full = invoiceBody({
      recipient: 'wallet',
      recipient_id: 'W1',
      merchant_ref: 'M-1',
      metadata: '{"a":1,"b":true}',
      card_token: 'tok_123456',
      tokenize: 'false',
    });
    await expectStatus('add-invoice', { key, body: full }, 201);
    await expectStatus(
      'add-invoice',
      { key, body: { ...full, client: undefined, client_id: created.body.data.client_id } },
      409,
      'duplicate_merchant_ref',
    );
    await expectStatus('add-invoice', { key, body: invoiceBody({ tokenize: true }) }, 403, 'tokenization_not_enabled');
    await expectStatus(
      'add-invoice',
      { key, body: invoiceBody({ client: undefined, client_id: 987654 }) },
      404,
      'client_not_found',
    );
    await expectStatus('add-invoice', { key, body, idempotencyKey: 'x'.repeat(256) }, 400, 'invalid_idempotency_key');
    const first = await expectStatus('add-invoice', { key, body, idempotencyKey: 'inv-1' }, 201);
    const replay = await expectStatus('add-invoice', { key, body, idempotencyKey: 'inv-1' }, 201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    await expectStatus(
      'add-invoice',
      { key, body: { ...body, due_date: '01/01/2031' }, idempotencyKey: 'inv-1' },
      422,
      'idempotency_key_reused',
    );
    const remove = fault('TransactWriteItemsCommand', inFlight);
    const busy = await expectStatus(
      'add-invoice',
      { key, body, idempotencyKey: 'inv-2' },
      409,
      'idempotency_request_in_progress',
    ).finally(remove);
    expect(busy.headers['retry-after']).toBe('1');
    // A stored 404 outcome is replayed with the header too.
    const missing = invoiceBody({ client: undefined, client_id: 987654 });
    await expectStatus('add-invoice', { key, body: missing, idempotencyKey: 'inv-3' }, 404);
    expect(
      (await expectStatus('add-invoice', { key, body: missing, idempotencyKey: 'inv-3' }, 404)).headers[
        'idempotent-replayed'
      ],
    ).toBe('true');
    await commonOutcomes(
      'add-invoice',
      key,
      invoiceBody(),
      invoiceBody({ due_date: '02/30/2030' }),
      'TransactWriteItemsCommand',
    );
  });

  it('POST /payments', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const payment = {
      reference_code: invoice.reference_code,
      date: todayMonthFirst(),
      amount: '10,000.00',
      channel: 'POS',
    };
    await expectStatus('add-payment', { key, body: payment }, 201);
    await expectStatus(
      'add-payment',
      { key, body: { ...payment, reference_code: 'ZZZZZZZZZZZZZZZZZZZZ' } },
      404,
      'invoice_not_found',
    );
    await expectStatus('add-payment', { key, body: { ...payment, amount: 40_000.01 } }, 409, 'amount_exceeds_balance');
    await expectStatus(
      'add-payment',
      { key, body: payment, idempotencyKey: ' ' + 'é' },
      400,
      'invalid_idempotency_key',
    );
    await expectStatus('add-payment', { key, body: payment, idempotencyKey: 'pay-1' }, 201);
    expect(
      (await expectStatus('add-payment', { key, body: payment, idempotencyKey: 'pay-1' }, 201)).headers[
        'idempotent-replayed'
      ],
    ).toBe('true');
    await expectStatus(
      'add-payment',
      { key, body: { ...payment, amount: '1' }, idempotencyKey: 'pay-1' },
      422,
      'idempotency_key_reused',
    );
    const remove = fault('TransactWriteItemsCommand', inFlight);
    await expectStatus(
      'add-payment',
      { key, body: payment, idempotencyKey: 'pay-2' },
      409,
      'idempotency_request_in_progress',
    ).finally(remove);
    await expectStatus('add-payment', { key, body: { ...payment, amount: '30,000' } }, 201);
    await expectStatus('add-payment', { key, body: payment }, 409, 'invoice_already_paid');
    const open = await createInvoice(key);
    await commonOutcomes(
      'add-payment',
      key,
      { ...payment, reference_code: open.reference_code },
      { ...payment, channel: 'Card' },
      'TransactWriteItemsCommand',
    );
  });

  it('POST /payments/history', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    for (const amount of ['100', '200', '300']) {
      await call('add-payment', {
        key,
        body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount, channel: 'Cash' },
      });
    }
    const page = await expectStatus('payment-history', { key, body: { period: 'today', limit: 2 } }, 200);
    expect(page.body.data.next_cursor).toEqual(expect.any(String));
    await expectStatus('payment-history', { key, body: { period: 'today', cursor: page.body.data.next_cursor } }, 200);
    await expectStatus(
      'payment-history',
      { key, body: { period: 'custom', start: '01/01/2020', end: '31/12/2020' } },
      200,
    );
    await expectStatus('payment-history', { key, body: { period: 'fortnight' } }, 400, 'invalid_period');
    await expectStatus(
      'payment-history',
      { key, body: { period: 'week', cursor: page.body.data.next_cursor } },
      400,
      'invalid_cursor',
    );
    await commonOutcomes('payment-history', key, { period: 'today' }, { period: 'today', limit: 501 }, 'QueryCommand');
  });

  it('GET and DELETE /invoices/{reference_code}', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
    await expectStatus('get-invoice', { key, ...byCode(invoice.reference_code) }, 200);
    await expectStatus('get-invoice', { key, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') }, 404, 'invoice_not_found');
    await faultOutcomes('get-invoice', key, byCode(invoice.reference_code), 'BatchGetItemCommand');
    await faultOutcomes('delete-invoice', key, byCode(invoice.reference_code), 'TransactWriteItemsCommand');
    await expectStatus('delete-invoice', { key, ...byCode(invoice.reference_code) }, 200);
    await expectStatus('delete-invoice', { key, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') }, 404, 'invoice_not_found');
    const paid = await createInvoice(key);
    const payment = { reference_code: paid.reference_code, date: todayMonthFirst(), amount: '1', channel: 'Cash' };
    await expectStatus('add-payment', { key, body: payment }, 201);
    await expectStatus('delete-invoice', { key, ...byCode(paid.reference_code) }, 409, 'invoice_has_payments');
    // A credit note's credit, refunded after the payment was reversed: the void cannot take it back.
    const settled = await createInvoice(key);
    const whole = { ...payment, reference_code: settled.reference_code, amount: settled.total };
    const paidWhole = await expectStatus('add-payment', { key, body: whole }, 201);
    const note = { reason: 'Discount', amount: '1' };
    await expectStatus('create-credit-note', { key, ...byCode(settled.reference_code), body: note }, 201);
    const reversal = { pathParameters: { id: String(paidWhole.body.data.id) }, body: { reason: 'Bounced' } };
    await expectStatus('reverse-payment', { key, ...reversal }, 200);
    const refund = { pathParameters: { id: String(settled.client_id) }, body: { amount: '1' } };
    await expectStatus('refund-client-credit', { key, ...refund }, 200);
    await expectStatus('delete-invoice', { key, ...byCode(settled.reference_code) }, 409, 'amount_exceeds_credit');
    await expectStatus(
      'add-payment',
      { key, body: { ...payment, reference_code: invoice.reference_code } },
      409,
      'invoice_deleted',
    );
  });

  it('GET /invoices/send/{reference_code} and POST /invoices/{reference_code}/send', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const voided = await createInvoice(key);
    await expectStatus('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } }, 200);
    const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
    await withEnvironment({ MAIL_FROM: '' }, async () => {
      for (const route of ['send-invoice', 'email-invoice'] as const)
        await expectStatus(route, { key, ...byCode(invoice.reference_code) }, 501, 'mail_not_configured');
    });
    await withEnvironment({ MAIL_FROM: 'invoices@example.com' }, async () => {
      for (const route of ['send-invoice', 'email-invoice'] as const) {
        const options = { key, ...byCode(invoice.reference_code) };
        await expectStatus(route, { ...options, idempotencyKey: `${route}-1` }, 200);
        await expectStatus(route, { ...options, idempotencyKey: `${route}-1` }, 200); // replay
        await expectStatus(route, { ...options, idempotencyKey: ' é' }, 400, 'invalid_idempotency_key');
        await expectStatus(route, { key, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') }, 404, 'invoice_not_found');
        await expectStatus(route, { key, ...byCode('ZZ ZZ') }, 404, 'invoice_not_found');
        await expectStatus(route, { key, ...byCode(voided.reference_code) }, 409, 'invoice_deleted');
        const remove = fault('TransactWriteItemsCommand', inFlight);
        await expectStatus(
          route,
          { ...options, idempotencyKey: `${route}-2` },
          409,
          'idempotency_request_in_progress',
        ).finally(remove);
        await faultOutcomes(route, key, byCode(invoice.reference_code), 'TransactWriteItemsCommand');
      }
      const post = { key, ...byCode(invoice.reference_code), idempotencyKey: 'email-invoice-1' };
      await expectStatus('email-invoice', { ...post, body: { message: 'other' } }, 422, 'idempotency_key_reused');
      await expectStatus(
        'send-invoice',
        { key, ...byCode(invoice.reference_code), idempotencyKey: 'send-invoice-1', body: 'x' },
        200,
      );
      await commonOutcomes(
        'email-invoice',
        key,
        { to: 'ada@example.com' },
        { to: 'nope' },
        'TransactWriteItemsCommand',
        byCode(invoice.reference_code),
      );
      await expectStatus('send-invoice', { key, ...byCode(await clientlessInvoice(key)) }, 422, 'recipient_missing');
      await expectStatus('email-invoice', { key, ...byCode(await clientlessInvoice(key)) }, 422, 'recipient_missing');
      const sendAgain = { key, ...byCode(invoice.reference_code), idempotencyKey: 'send-invoice-1' };
      await expectStatus(
        'send-invoice',
        { ...sendAgain, pathParameters: { reference_code: voided.reference_code } },
        422,
        'idempotency_key_reused',
      );
    });
  });

  it('POST /invoices/{reference_code}/reminders', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const voided = await createInvoice(key);
    const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
    await expectStatus('delete-invoice', { key, ...byCode(voided.reference_code) }, 200);
    const options = { key, ...byCode(invoice.reference_code), body: { paused: true } };
    await expectStatus('invoice-reminders', { ...options, idempotencyKey: 'pause-1' }, 200);
    await expectStatus('invoice-reminders', { ...options, idempotencyKey: 'pause-1' }, 200); // replay
    await expectStatus('invoice-reminders', { ...options, body: { paused: false } }, 200);
    await expectStatus('invoice-reminders', { ...options, idempotencyKey: ' é' }, 400, 'invalid_idempotency_key');
    const reused = { ...options, idempotencyKey: 'pause-1', body: { paused: false } };
    await expectStatus('invoice-reminders', reused, 422, 'idempotency_key_reused');
    await expectStatus(
      'invoice-reminders',
      { ...options, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') },
      404,
      'invoice_not_found',
    );
    await expectStatus('invoice-reminders', { ...options, ...byCode(voided.reference_code) }, 409, 'invoice_deleted');
    const remove = fault('TransactWriteItemsCommand', inFlight);
    await expectStatus(
      'invoice-reminders',
      { ...options, idempotencyKey: 'pause-2' },
      409,
      'idempotency_request_in_progress',
    ).finally(remove);
    await commonOutcomes(
      'invoice-reminders',
      key,
      { paused: true },
      { paused: 'maybe' },
      'TransactWriteItemsCommand',
      byCode(invoice.reference_code),
    );
  });

  it('POST /invoices/{reference_code}/credit-notes', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const voided = await createInvoice(key);
    const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
    await expectStatus('delete-invoice', { key, ...byCode(voided.reference_code) }, 200);
    const options = { key, ...byCode(invoice.reference_code), body: { reason: 'Returned', amount: '10.00' } };
    await expectStatus('create-credit-note', { ...options, idempotencyKey: 'credit-1' }, 201);
    await expectStatus('create-credit-note', { ...options, idempotencyKey: 'credit-1' }, 201); // replay
    const byItems = { reason: 'One returned', items: [{ item: 'A', description: 'B', unit_cost: '5', quantity: 1 }] };
    await expectStatus('create-credit-note', { ...options, body: byItems }, 201);
    await expectStatus('create-credit-note', { ...options, idempotencyKey: ' é' }, 400, 'invalid_idempotency_key');
    const reused = { ...options, idempotencyKey: 'credit-1', body: { reason: 'Other', amount: '1.00' } };
    await expectStatus('create-credit-note', reused, 422, 'idempotency_key_reused');
    const tooMuch = { ...options, body: { reason: 'All', amount: '999999.00' } };
    await expectStatus('create-credit-note', tooMuch, 409, 'credit_exceeds_invoice');
    const unknown = { ...options, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') };
    await expectStatus('create-credit-note', unknown, 404, 'invoice_not_found');
    await expectStatus('create-credit-note', { ...options, ...byCode(voided.reference_code) }, 409, 'invoice_deleted');
    const remove = fault('TransactWriteItemsCommand', inFlight);
    await expectStatus(
      'create-credit-note',
      { ...options, idempotencyKey: 'credit-2' },
      409,
      'idempotency_request_in_progress',
    ).finally(remove);
    await commonOutcomes(
      'create-credit-note',
      key,
      { reason: 'Returned', amount: '1.00' },
      { reason: 'Returned', amount: '0' },
      'TransactWriteItemsCommand',
      byCode(invoice.reference_code),
    );
  });

  it('the invoice PDF, and the hosted page and its PDF (HTML answers, errors included)', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
    await expectStatus('invoice-pdf', { key, ...byCode(invoice.reference_code) }, 200);
    await expectStatus('invoice-pdf', { key, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') }, 404, 'invoice_not_found');
    await faultOutcomes('invoice-pdf', key, byCode(invoice.reference_code), 'BatchGetItemCommand');
    const token = { pathParameters: { token: new URL(invoice.hosted_url).pathname.split('/')[2]! } };
    const unknown = { pathParameters: { token: 'A'.repeat(24) } };
    for (const route of ['hosted-invoice-page', 'hosted-invoice-pdf'] as const) {
      await expectStatus(route, token, 200);
      await expectStatus(route, unknown, 404);
      // The page's first read: the Query of its link's partition (the link and the receipts).
      let remove = fault('QueryCommand', () => new Error('simulated bug'));
      await expectStatus(route, token, 500).finally(remove);
      remove = fault('QueryCommand', () => awsError('ThrottlingException'));
      const unavailable = await expectStatus(route, token, 503).finally(remove);
      expect(unavailable.headers['retry-after']).toBe('1');
    }
    await expectStatus('delete-invoice', { key, ...byCode(invoice.reference_code) }, 200);
    await expectStatus('hosted-invoice-page', token, 410);
    await expectStatus('hosted-invoice-pdf', token, 410);
  });

  it('GET /invoices/{reference_code}/ubl', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
    await expectStatus('invoice-ubl', { key, ...byCode(invoice.reference_code) }, 422, 'einvoice_incomplete');
    await updateAccount(account.companyId, { profile: { email: 'billing@ubl.example', taxId: '12345678-0001' } });
    clearAuthCache();
    await expectStatus('invoice-ubl', { key, ...byCode(invoice.reference_code) }, 200);
    await expectStatus('invoice-ubl', { key, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') }, 404, 'invoice_not_found');
    await faultOutcomes('invoice-ubl', key, byCode(invoice.reference_code), 'BatchGetItemCommand');
    await expectStatus('delete-invoice', { key, ...byCode(invoice.reference_code) }, 200);
    await expectStatus('invoice-ubl', { key, ...byCode(invoice.reference_code) }, 409, 'invoice_deleted');
  });

  it('GET /invoices/{reference_code}/credit-notes/{number}/ubl and /pdf', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const other = await createInvoice(key);
    const credited = await call('create-credit-note', {
      key,
      pathParameters: { reference_code: invoice.reference_code },
      body: { reason: 'Returned', amount: '10.00' },
    });
    const number = credited.body.data.number as string;
    const note = (reference_code: string, numbered = number) => ({
      pathParameters: { reference_code, number: numbered },
    });
    await expectStatus('credit-note-ubl', { key, ...note(invoice.reference_code) }, 422, 'einvoice_incomplete');
    await updateAccount(account.companyId, { profile: { email: 'billing@ubl.example', taxId: '12345678-0001' } });
    clearAuthCache();
    for (const route of ['credit-note-ubl', 'credit-note-pdf'] as const) {
      await expectStatus(route, { key, ...note(invoice.reference_code) }, 200);
      await expectStatus(route, { key, ...note('ZZZZZZZZZZZZZZZZZZZZ') }, 404, 'invoice_not_found');
      await expectStatus(route, { key, ...note(other.reference_code) }, 404, 'credit_note_not_found');
      await expectStatus(route, { key, ...note(invoice.reference_code, 'CN-999999') }, 404, 'credit_note_not_found');
      await faultOutcomes(route, key, note(invoice.reference_code), 'BatchGetItemCommand');
    }
  });

  it('GET /payments/{reference_code}', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const byCode = { pathParameters: { reference_code: invoice.reference_code } };
    await expectStatus('get-payment', { key, ...byCode }, 404, 'payment_not_found');
    const payment = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '1', channel: 'Cash' };
    await expectStatus('add-payment', { key, body: payment }, 201);
    await expectStatus('get-payment', { key, ...byCode }, 200);
    await expectStatus('get-payment', { key, pathParameters: { reference_code: 'Z' } }, 404, 'invoice_not_found');
    await faultOutcomes('get-payment', key, byCode, 'BatchGetItemCommand');
  });

  it('POST /payments/{id}/reversal', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '1', channel: 'Cash' };
    const pay = async () => ({
      pathParameters: { id: String((await call('add-payment', { key, body })).body.data.id) },
    });
    const reason = { reason: 'Keyed on the wrong invoice' };
    const first = await pay();
    await expectStatus('reverse-payment', { key, ...first, body: reason }, 200);
    await expectStatus('reverse-payment', { key, ...first, body: reason }, 409, 'payment_already_reversed');
    await expectStatus(
      'reverse-payment',
      { key, pathParameters: { id: '999999' }, body: reason },
      404,
      'payment_not_found',
    );
    const second = await pay();
    await expectStatus(
      'reverse-payment',
      { key, ...second, body: reason, idempotencyKey: ' é' },
      400,
      'invalid_idempotency_key',
    );
    const remove = fault('TransactWriteItemsCommand', inFlight);
    await expectStatus(
      'reverse-payment',
      { key, ...second, body: reason, idempotencyKey: 'rev-1' },
      409,
      'idempotency_request_in_progress',
    ).finally(remove);
    await expectStatus('reverse-payment', { key, ...second, body: reason, idempotencyKey: 'rev-2' }, 200);
    await expectStatus(
      'reverse-payment',
      { key, ...second, body: { reason: 'other' }, idempotencyKey: 'rev-2' },
      422,
      'idempotency_key_reused',
    );
    // A reversal reads its payment and invoice as one snapshot (TransactGetItems: docs/decisions.md "Snapshot reads").
    const snapshot = 'TransactGetItemsCommand';
    await commonOutcomes(
      'reverse-payment',
      key,
      reason,
      { reason: '' },
      'TransactWriteItemsCommand',
      await pay(),
      snapshot,
    );
  });

  it('POST /invoices/history', async () => {
    const { key } = await newAccount();
    for (let i = 0; i < 3; i++) await createInvoice(key);
    const page = await expectStatus('invoice-history', { key, body: { period: 'today', limit: 2 } }, 200);
    await expectStatus('invoice-history', { key, body: { period: 'today', cursor: page.body.data.next_cursor } }, 200);
    await expectStatus('invoice-history', { key, body: { period: 'fortnight' } }, 400, 'invalid_period');
    await expectStatus(
      'invoice-history',
      { key, body: { period: 'week', cursor: page.body.data.next_cursor } },
      400,
      'invalid_cursor',
    );
    await commonOutcomes('invoice-history', key, { period: 'today' }, { period: 'today', limit: 0 }, 'QueryCommand');
  });

  it('the client routes', async () => {
    const { key } = await newAccount();
    const fields = { first_name: 'A', last_name: 'B', email: `c${Date.now()}@example.com`, phone: '+2348012345678' };
    const created = await expectStatus('add-client', { key, body: fields, idempotencyKey: 'c-1' }, 201);
    await expectStatus('add-client', { key, body: fields, idempotencyKey: 'c-1' }, 201);
    await expectStatus('add-client', { key, body: fields }, 200);
    await expectStatus(
      'add-client',
      { key, body: fields, idempotencyKey: 'x'.repeat(256) },
      400,
      'invalid_idempotency_key',
    );
    await expectStatus(
      'add-client',
      { key, body: { ...fields, last_name: 'C' }, idempotencyKey: 'c-1' },
      422,
      'idempotency_key_reused',
    );
    const remove = fault('TransactWriteItemsCommand', inFlight);
    await expectStatus(
      'add-client',
      { key, body: { ...fields, email: `d${Date.now()}@example.com` }, idempotencyKey: 'c-2' },
      409,
      'idempotency_request_in_progress',
    ).finally(remove);
    const fresh = () => ({ ...fields, email: `e${Date.now()}${Math.random()}@example.com` });
    await commonOutcomes('add-client', key, fresh(), { ...fields, email: 'nope' }, 'TransactWriteItemsCommand');

    const id = String(created.body.data.id);
    const byId = { pathParameters: { id } };
    await expectStatus('get-client', { key, ...byId }, 200);
    await expectStatus('get-client', { key, pathParameters: { id: '987654' } }, 404, 'client_not_found');
    await faultOutcomes('get-client', key, byId, 'BatchGetItemCommand');

    await expectStatus('list-clients', { key, query: { limit: '1' } }, 200);
    await expectStatus('list-clients', { key, query: { limit: 'x' } }, 400, 'validation_failed');
    await expectStatus('list-clients', { key, query: { cursor: 'forged.cursor' } }, 400, 'invalid_cursor');
    await faultOutcomes('list-clients', key, {}, 'QueryCommand');

    const other = await expectStatus('add-client', { key, body: fresh() }, 201);
    await expectStatus('update-client', { key, ...byId, body: { last_name: 'D' } }, 200);
    await expectStatus(
      'update-client',
      { key, ...byId, body: { email: other.body.data.email } },
      409,
      'duplicate_client_email',
    );
    await expectStatus('update-client', { key, pathParameters: { id: '987654' }, body: {} }, 404, 'client_not_found');
    await commonOutcomes('update-client', key, { last_name: 'E' }, { phone: 'x' }, 'TransactWriteItemsCommand', byId);

    await faultOutcomes('delete-client', key, byId, 'TransactWriteItemsCommand');
    await expectStatus('delete-client', { key, ...byId }, 200);
    await expectStatus('delete-client', { key, pathParameters: { id: '987654' } }, 404, 'client_not_found');
  });

  it('POST /reports/aging and POST /clients/{id}/statement', { timeout: 120_000 }, async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    await createInvoice(key);
    const clients = await expectStatus('aging-report', { key, body: { limit: 1 } }, 200);
    await expectStatus('aging-report', { key, body: { cursor: clients.body.data.next_cursor } }, 200);
    await expectStatus('aging-report', { key, body: { invoices: true, bucket: 'current', limit: 1 } }, 200);
    await expectStatus('aging-report', { key, body: { client_id: 987654 } }, 404, 'client_not_found');
    await expectStatus(
      'aging-report',
      { key, body: { invoices: true, cursor: clients.body.data.next_cursor } },
      400,
      'invalid_cursor',
    );
    const csv = await expectStatus('aging-report', { key, body: { limit: 1 }, headers: { accept: 'text/csv' } }, 200);
    expect(csv.headers['x-next-cursor']).toEqual(expect.any(String));
    await commonOutcomes('aging-report', key, {}, { bucket: 'later' }, 'QueryCommand');

    const byId = { pathParameters: { id: String(invoice.client.id) } };
    await expectStatus('client-statement', { key, ...byId, body: { period: 'today' } }, 200);
    await expectStatus(
      'client-statement',
      { key, ...byId, body: { period: 'today' }, headers: { accept: 'text/csv' } },
      200,
    );
    await expectStatus('client-statement', { key, ...byId, body: { period: 'fortnight' } }, 400, 'invalid_period');
    await expectStatus(
      'client-statement',
      { key, pathParameters: { id: '987654' }, body: { period: 'today' } },
      404,
      'client_not_found',
    );
    await expectStatus('client-statement', await crowdedStatement(), 400, 'statement_too_large');
    await commonOutcomes(
      'client-statement',
      key,
      { period: 'today' },
      [1], // not an object: validation_failed (every field of the statement is a period field)
      'QueryCommand',
      byId,
    );
  });

  it('POST /reports/tax', { timeout: 120_000 }, async () => {
    const { key } = await newAccount();
    await createInvoice(key);
    await expectStatus('tax-report', { key, body: { period: 'today' } }, 200);
    await expectStatus('tax-report', { key, body: { period: 'year' }, headers: { accept: 'text/csv' } }, 200);
    await expectStatus('tax-report', { key, body: { period: 'fortnight' } }, 400, 'invalid_period');
    // Not an object: validation_failed (every field of the report is a period field).
    await commonOutcomes('tax-report', key, { period: 'today' }, [1], 'QueryCommand');
  });

  it('the pay button and the return (HTML answers, errors included)', async () => {
    const connected = await connectedAccount(paystack);
    const { token } = await invoiceToPay(connected.key);
    const page = { pathParameters: { token } };
    const unknown = { pathParameters: { token: 'A'.repeat(24) } };
    await expectStatus(
      'hosted-invoice-pay',
      { ...page, body: '', contentType: 'application/x-www-form-urlencoded' },
      303,
    );
    const { reference } = await payInvoice(paystack, connected.secretKey, token);
    await expectStatus('hosted-invoice-paid', { ...page, query: { reference } }, 200);
    await expectStatus('hosted-invoice-pay', page, 200); // paid now: the page again, saying so
    for (const route of ['hosted-invoice-pay', 'hosted-invoice-paid'] as const) {
      await expectStatus(route, unknown, 404);
      let remove = fault('QueryCommand', () => new Error('simulated bug'));
      await expectStatus(route, page, 500).finally(remove);
      remove = fault('QueryCommand', () => awsError('ThrottlingException'));
      await expectStatus(route, page, 503).finally(remove);
    }
    // Voided while its client was at the checkout: the voided page, with the refund on top.
    const voided = await invoiceToPay(connected.key);
    const pressed = await pressPay(voided.token);
    await call('delete-invoice', {
      key: connected.key,
      pathParameters: { reference_code: voided.invoice.reference_code },
    });
    await payAtCheckout(pressed.headers.location!, 'success_card');
    const late = await referenceOfCheckout(paystack, connected.secretKey);
    const refunded = await expectStatus(
      'hosted-invoice-paid',
      { pathParameters: { token: voided.token }, query: { reference: late } },
      410,
    );
    expect(refunded.rawBody).toContain('is being refunded to you');
    await expectStatus('hosted-invoice-pay', { pathParameters: { token: voided.token } }, 410);
    const history = await call('payment-history', { key: connected.key, body: { period: 'today' } });
    const whole = history.body.data.payments.find((p: { status: string }) => p.status === 'refunded');
    await expectStatus(
      'reverse-payment',
      { key: connected.key, pathParameters: { id: String(whole.id) }, body: { reason: 'Twice' } },
      409,
      'payment_refunded',
    );
  });

  it("POST /paystack/events/{hook_id} (Paystack's webhook)", async () => {
    const connected = await connectedAccount(paystack);
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'T1' } });
    await expectStatus(
      'paystack-event',
      {
        pathParameters: { hook_id: connected.hookId },
        body,
        headers: { 'x-paystack-signature': sign(body, connected.secretKey) },
      },
      200,
    );
    expect((await sendWebhook(connected.hookId, body, '00')).status).toBe(401);
    await expectStatus(
      'paystack-event',
      { pathParameters: { hook_id: connected.hookId }, body },
      401,
      'invalid_signature',
    );
    const unknownHook = {
      pathParameters: { hook_id: 'A'.repeat(24) },
      body,
      headers: { 'x-paystack-signature': sign(body, connected.secretKey) },
    };
    await expectStatus('paystack-event', unknownHook, 404, 'hook_not_found');
    const large = JSON.stringify({ pad: 'x'.repeat(300_000) });
    const signedLarge = {
      pathParameters: { hook_id: connected.hookId },
      body: large,
      headers: { 'x-paystack-signature': sign(large, connected.secretKey) },
    };
    await expectStatus('paystack-event', signedLarge, 413, 'payload_too_large');
    const signed = {
      pathParameters: { hook_id: connected.hookId },
      body,
      headers: { 'x-paystack-signature': sign(body, connected.secretKey) },
    };
    let remove = fault('GetItemCommand', () => new Error('simulated bug'));
    await expectStatus('paystack-event', signed, 500, 'internal_error').finally(remove);
    remove = fault('PutItemCommand', () => awsError('ThrottlingException'));
    await expectStatus('paystack-event', signed, 503, 'service_unavailable').finally(remove);
  });

  it('saved cards: GET /clients/{id} with them, DELETE /clients/{id}/cards/{card_token}, card_token on add invoice', async () => {
    const connected = await connectedAccount(paystack, { tokenizationEnabled: true });
    const { invoice, token } = await invoiceToPay(connected.key, { tokenize: 'true' });
    const { reference } = await payInvoice(paystack, connected.secretKey, token);
    await returnFrom(token, reference);
    const latest = await call('get-payment', {
      key: connected.key,
      pathParameters: { reference_code: invoice.reference_code },
    });
    const cardToken = latest.body.data.card_token as string;
    const client = String(invoice.client_id);
    const shown = await expectStatus('get-client', { key: connected.key, pathParameters: { id: client } }, 200);
    expect(shown.body.data.cards).toHaveLength(1);
    await expectStatus(
      'add-invoice',
      { key: connected.key, body: invoiceBody({ card_token: cardToken }) },
      400,
      'invalid_card_token',
    );
    const { due_date: _none, ...template } = invoiceBody({ card_token: cardToken });
    const schedule = { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 14, end: { after: 1 } };
    await expectStatus(
      'create-recurring-invoice',
      { key: connected.key, body: { ...template, schedule } },
      400,
      'invalid_card_token',
    );
    const path = { pathParameters: { id: client, card_token: cardToken } };
    await faultOutcomes('forget-client-card', connected.key, path, 'TransactWriteItemsCommand');
    await expectStatus('forget-client-card', { key: connected.key, ...path }, 200);
    await expectStatus('forget-client-card', { key: connected.key, ...path }, 404, 'card_not_found');
    await expectStatus(
      'forget-client-card',
      { key: connected.key, pathParameters: { id: '999999', card_token: cardToken } },
      404,
      'client_not_found',
    );
  });

  it('the recurring-invoice routes', async () => {
    const { account, key } = await newAccount();
    const { due_date: _none, ...invoice } = invoiceBody();
    const schedule = { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 14, end: { after: 1 } };
    const body = { ...invoice, schedule };
    const created = await expectStatus('create-recurring-invoice', { key, body, idempotencyKey: 'rec-1' }, 201);
    await expectStatus('create-recurring-invoice', { key, body, idempotencyKey: 'rec-1' }, 201); // replay
    const reused = { key, body: { ...body, send: true }, idempotencyKey: 'rec-1' };
    await expectStatus('create-recurring-invoice', reused, 422, 'idempotency_key_reused');
    await expectStatus('create-recurring-invoice', { key, body, idempotencyKey: ' é' }, 400, 'invalid_idempotency_key');
    await expectStatus('create-recurring-invoice', { key, body: { ...body, tokenize: 'true' } }, 403);
    const unknownClient = { ...body, client: undefined, client_id: '999999' };
    await expectStatus('create-recurring-invoice', { key, body: unknownClient }, 404, 'client_not_found');
    let remove = fault('TransactWriteItemsCommand', inFlight);
    await expectStatus(
      'create-recurring-invoice',
      { key, body, idempotencyKey: 'rec-2' },
      409,
      'idempotency_request_in_progress',
    ).finally(remove);
    const invalid = { ...body, schedule: { ...schedule, every: 0 } };
    await commonOutcomes('create-recurring-invoice', key, body, invalid, 'TransactWriteItemsCommand');
    const id = String(created.body.data.id);
    const byId = (seriesId: string) => ({ key, pathParameters: { id: seriesId } });
    const unknown = 'rec_01JZ0000000000000000000000';
    await expectStatus('get-recurring-invoice', byId(id), 200);
    await expectStatus('get-recurring-invoice', byId(unknown), 404, 'recurring_not_found');
    await faultOutcomes('get-recurring-invoice', key, byId(id), 'BatchGetItemCommand');
    const page = await expectStatus('list-recurring-invoices', { key, query: { limit: '1' } }, 200);
    await expectStatus('list-recurring-invoices', { key, query: { limit: '501' } }, 400, 'validation_failed');
    const forged = `${String(page.body.data.next_cursor).slice(0, -4)}AAAA`;
    await expectStatus('list-recurring-invoices', { key, query: { cursor: forged } }, 400, 'invalid_cursor');
    await faultOutcomes('list-recurring-invoices', key, {}, 'QueryCommand');
    for (const action of ['pause', 'resume', 'cancel'] as const) {
      const route = `${action}-recurring-invoice` as const;
      await faultOutcomes(route, key, byId(id), 'TransactWriteItemsCommand');
      await expectStatus(route, { ...byId(id), idempotencyKey: ' é' }, 400, 'invalid_idempotency_key');
      remove = fault('TransactWriteItemsCommand', inFlight);
      const keyed = { ...byId(id), idempotencyKey: `${action}-1` };
      await expectStatus(route, keyed, 409, 'idempotency_request_in_progress').finally(remove);
      await expectStatus(route, keyed, 200);
      await expectStatus(route, { ...keyed, ...byId(unknown) }, 422, 'idempotency_key_reused');
      await expectStatus(route, byId(unknown), 404, 'recurring_not_found');
    }
    await expectStatus('pause-recurring-invoice', byId(id), 409, 'recurring_status_conflict');
    await expectStatus('resume-recurring-invoice', byId(id), 409, 'recurring_status_conflict');
    const other = await expectStatus('create-recurring-invoice', { key, body }, 201);
    const hit = {
      kind: 'recurring' as const,
      id: String(other.body.data.id),
      companyId: account.companyId,
      indexKey: '',
    };
    await wakeSeries([hit], {
      now: new Date('2031-02-01T12:00:00Z'),
      writtenAt: () => new Date(),
      account: getAccount,
    });
    const completed = byId(String(other.body.data.id));
    await expectStatus('cancel-recurring-invoice', completed, 409, 'recurring_status_conflict');
  });

  it('POST /clients/{id}/statement/send', { timeout: 120_000 }, async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const byId = { pathParameters: { id: String(invoice.client.id) } };
    const valid = { period: 'today' };
    await withEnvironment({ MAIL_FROM: '' }, () =>
      expectStatus('send-client-statement', { key, ...byId, body: valid }, 501, 'mail_not_configured'),
    );
    await withEnvironment({ MAIL_FROM: 'invoices@example.com' }, async () => {
      const options = { key, ...byId, body: valid };
      await expectStatus('send-client-statement', { ...options, idempotencyKey: 'statement-1' }, 200);
      await expectStatus('send-client-statement', { ...options, idempotencyKey: 'statement-1' }, 200); // replay
      await expectStatus('send-client-statement', { ...options, idempotencyKey: ' é' }, 400, 'invalid_idempotency_key');
      const reused = { ...options, idempotencyKey: 'statement-1', body: { period: 'month' } };
      await expectStatus('send-client-statement', reused, 422, 'idempotency_key_reused');
      const remove = fault('TransactWriteItemsCommand', inFlight);
      await expectStatus(
        'send-client-statement',
        { ...options, idempotencyKey: 'statement-2' },
        409,
        'idempotency_request_in_progress',
      ).finally(remove);
      const fortnight = { ...options, body: { period: 'fortnight' } };
      await expectStatus('send-client-statement', fortnight, 400, 'invalid_period');
      const unknown = { key, pathParameters: { id: '987654' }, body: valid };
      await expectStatus('send-client-statement', unknown, 404, 'client_not_found');
      await expectStatus('send-client-statement', await crowdedStatement(), 400, 'statement_too_large');
      await expectStatus(
        'send-client-statement',
        await addresslessClient(key, account.companyId),
        422,
        'recipient_missing',
      );
      await commonOutcomes(
        'send-client-statement',
        key,
        valid,
        { period: 'today', to: 'nope' },
        'TransactWriteItemsCommand',
        byId,
        'QueryCommand',
      );
    });
  });

  it('POST /clients/{id}/virtual-account and POST /clients/{id}/credit/refund', async () => {
    const connected = await connectedAccount(paystack);
    const { key } = connected;
    const client = await call('add-client', {
      key,
      body: { first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com', phone: '+2348012345678' },
    });
    const byId = { pathParameters: { id: String(client.body.data.id) } };
    await setPaystackPreferredBank(connected.account.companyId, 'no-such-bank');
    await expectStatus('create-virtual-account', { key, ...byId }, 422, 'virtual_account_refused');
    await setPaystackPreferredBank(connected.account.companyId, DEFAULT_PREFERRED_BANK);
    await withEnvironment({ PAYSTACK_BASE_URL: 'http://127.0.0.1:9' }, () =>
      expectStatus('create-virtual-account', { key, ...byId }, 503, 'provider_unavailable'),
    );
    await faultOutcomes('create-virtual-account', key, byId, 'BatchGetItemCommand');
    const opened = await expectStatus('create-virtual-account', { key, ...byId }, 200);
    const unknown = { pathParameters: { id: '987654' } };
    await expectStatus('create-virtual-account', { key, ...unknown }, 404, 'client_not_found');
    const other = await newAccount();
    const otherClient = await createInvoice(other.key);
    const unconnected = { key: other.key, pathParameters: { id: String(otherClient.client.id) } };
    await expectStatus('create-virtual-account', unconnected, 409, 'payments_not_connected');

    await transferIntoVirtualAccount(paystack, connected, opened.body.data.virtual_account.account_number, 100_000);
    const refund = (amount: string) => ({ key, ...byId, body: { amount } });
    await expectStatus('refund-client-credit', refund('1.00'), 200);
    // Aging with a client holding credit: its row and the total carry it (the schema's unapplied credit fields).
    const aging = await expectStatus('aging-report', { key, body: {} }, 200);
    expect(aging.body.data.total_unapplied_credit).not.toBe('0.00');
    await expectStatus('refund-client-credit', refund('5,000.00'), 409, 'amount_exceeds_credit');
    await expectStatus('refund-client-credit', { ...refund('1.00'), ...unknown }, 404, 'client_not_found');
    await commonOutcomes(
      'refund-client-credit',
      key,
      { amount: '1.00' },
      { amount: '-5' },
      'TransactWriteItemsCommand',
      byId,
    );
  });

  it('exercised every documented status and error code of every operation', () => {
    const document = contractDocument();
    for (const route of ROUTES) {
      const responses = document.paths[route.path][route.method.toLowerCase()].responses as Record<string, any>;
      for (const [status, response] of Object.entries(responses)) {
        const seen = seenResponses.filter((r) => r.route === route.name && r.status === Number(status));
        expect(seen.length, `${route.name} ${status} never produced`).toBeGreaterThan(0);
        const codes: string[] = response.content?.['application/json']?.schema.allOf?.[1].properties.code.enum ?? [];
        for (const code of codes)
          expect(
            seen.some((r) => r.code === code),
            `${route.name} ${status} ${code} never produced`,
          ).toBe(true);
      }
    }
  });

  it('catches responses that break the contract', () => {
    const ok = { status: 'error', code: 'invalid_json', message: 'x', errors: [], request_id: 'r' };
    const headers = { 'content-type': 'application/json' };
    expect(contractViolations('add-invoice', { status: 400, headers, body: ok })).toEqual([]);
    expect(
      contractViolations('add-invoice', { status: 400, headers, body: { ...ok, code: 'invoice_not_found' } }),
    ).not.toEqual([]);
    expect(contractViolations('add-invoice', { status: 400, headers, body: { ...ok, extra: 1 } })).not.toEqual([]);
    expect(contractViolations('add-invoice', { status: 418, headers, body: ok })).toEqual([
      'status 418 is not documented for add-invoice',
    ]);
    expect(
      contractViolations('payment-history', {
        status: 400,
        headers: { ...headers, 'idempotent-replayed': 'true' },
        body: { ...ok },
      }),
    ).not.toEqual([]);
    expect(
      contractViolations('payment-history', {
        status: 200,
        headers,
        body: { status: 'success', data: { period: 'today' } },
      }),
    ).not.toEqual([]);
  });
});
