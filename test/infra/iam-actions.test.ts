/**
 * Least privilege, checked against behaviour: each API function's IAM grant (synthesised from shared/routes.ts)
 * must equal the set of DynamoDB actions its routes really perform. The calls are recorded through the
 * shared client's middleware stack (infra/tools/dynamo-hooks.ts) while a representative set of requests
 * runs per route: every outcome the route has (created, replayed, each 4xx it stores, first use of a key,
 * a new id block), so that every code path that touches the table is taken at least once.
 *
 * A transaction is authorised per contained action (Put → PutItem, Update → UpdateItem,
 * ConditionCheck → ConditionCheckItem, Delete → DeleteItem), as DynamoDB evaluates it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoCall, dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { resetConfig } from '../../shared/config.ts';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { API_FUNCTIONS, type ApiFunctionName, type RouteName, routeNamed } from '../../shared/routes.ts';
import { TABLE } from '../../shared/store/table.ts';
import {
  type CallOptions,
  call,
  createInvoice,
  invoiceBody,
  newAccount,
  todayMonthFirst,
  uniqueEmail,
} from '../support/api.ts';
import { dynamoGrantsOf, FUNCTION_IDS, logicalIdAt, synthStage } from './template-helpers.ts';

interface Performed {
  table: Set<string>;
  indexes: Map<string, Set<string>>;
}

const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Delete: 'dynamodb:DeleteItem',
  Get: 'dynamodb:GetItem',
};

/** The IAM actions one SDK call needs, with the index it targets (if any). */
function actionsOf(call: DynamoCall): { action: string; index?: string }[] {
  const operation = call.command.replace(/Command$/, '');
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    return ((call.input.TransactItems ?? []) as Record<string, unknown>[]).flatMap((item) =>
      Object.keys(item).map((kind) => ({ action: TRANSACT_ACTIONS[kind] ?? `unknown:${kind}` })),
    );
  }
  const index = typeof call.input.IndexName === 'string' ? call.input.IndexName : undefined;
  return [{ action: `dynamodb:${operation}`, ...(index ? { index } : {}) }];
}

const performed = new Map<ApiFunctionName, Performed>(
  API_FUNCTIONS.map((fn) => [fn.name, { table: new Set<string>(), indexes: new Map<string, Set<string>>() }]),
);
let recordingFor: ApiFunctionName | undefined;

/** Sends one request with the route's calls recorded; the auth cache is cleared so the key lookup runs too. */
async function recorded(route: RouteName, options: CallOptions, expectedStatus: number) {
  clearAuthCache();
  recordingFor = routeNamed(route).function;
  try {
    const result = await call(route, options);
    expect(result.status, `${route}: ${result.rawBody}`).toBe(expectedStatus);
    return result;
  } finally {
    recordingFor = undefined;
  }
}

let removeHook: () => void;
beforeAll(() => {
  removeHook = dynamoHooks.add({
    before(dynamoCall) {
      if (!recordingFor) return;
      const sink = performed.get(recordingFor)!;
      for (const { action, index } of actionsOf(dynamoCall)) {
        if (index === undefined) sink.table.add(action);
        else {
          if (!sink.indexes.has(index)) sink.indexes.set(index, new Set());
          sink.indexes.get(index)!.add(action);
        }
      }
    },
  });
});
afterAll(() => removeHook());

async function driveAddInvoice() {
  // A fresh account: its first write in this process also reserves a new id block.
  const { key } = await newAccount();
  const first = invoiceBody({ merchant_ref: 'iam-1' });
  const created = await recorded('add-invoice', { key, body: first, idempotencyKey: 'iam-invoice-1' }, 201);
  await recorded('add-invoice', { key, body: first, idempotencyKey: 'iam-invoice-1' }, 201); // replay
  await recorded(
    'add-invoice',
    { key, body: { ...first, due_date: '12/31/2030' }, idempotencyKey: 'iam-invoice-1' },
    422,
  );
  await recorded('add-invoice', { key, body: invoiceBody({ client: first.client }) }, 201); // existing email
  const { client, ...withoutClient } = invoiceBody();
  await recorded('add-invoice', { key, body: { ...withoutClient, client_id: created.body.data.client_id } }, 201);
  await recorded('add-invoice', { key, body: { ...withoutClient, client_id: '999999' } }, 404);
  await recorded('add-invoice', { key, body: invoiceBody({ merchant_ref: 'iam-1' }) }, 409);
  await recorded('add-invoice', { key, body: invoiceBody({ tokenize: true }) }, 403);
  await recorded('add-invoice', { key, body: invoiceBody({ due_date: '02/30/2030' }) }, 400);
  await recorded('add-invoice', { key: `sk_${'x'.repeat(40)}`, body: first }, 401);
}

async function driveAddPayment() {
  const { key } = await newAccount();
  const invoice = await createInvoice(key, {
    items: [{ item: 'Audit', description: 'Yearly', unit_cost: '100.00', quantity: '1' }],
  });
  const payment = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '40.00', channel: 'Cash' };
  // The account's first payment in this process also reserves a new id block.
  await recorded('add-payment', { key, body: payment, idempotencyKey: 'iam-payment-1' }, 201);
  await recorded('add-payment', { key, body: payment, idempotencyKey: 'iam-payment-1' }, 201); // replay
  await recorded('add-payment', { key, body: { ...payment, amount: '41.00' }, idempotencyKey: 'iam-payment-1' }, 422);
  await recorded('add-payment', { key, body: { ...payment, amount: '61.00' }, idempotencyKey: 'iam-payment-2' }, 409);
  await recorded('add-payment', { key, body: { ...payment, amount: '60.00' } }, 201); // pays it off
  await recorded('add-payment', { key, body: { ...payment, amount: '1.00' } }, 409); // already paid
  await recorded('add-payment', { key, body: { ...payment, reference_code: 'NoSuchInvoice0000000' } }, 404);
  await recorded('add-payment', { key, body: { ...payment, date: '02/30/2030' } }, 400);
  await recorded('add-payment', { key: `sk_${'x'.repeat(40)}`, body: payment }, 401);
}

async function drivePaymentHistory() {
  const { key } = await newAccount();
  for (let i = 0; i < 3; i++) {
    const invoice = await createInvoice(key);
    const paid = await call('add-payment', {
      key,
      body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'POS' },
    });
    expect(paid.status).toBe(201);
  }
  const page = await recorded('payment-history', { key, body: { period: 'today', limit: 2 } }, 200);
  const cursor = page.body.data.next_cursor as string;
  expect(typeof cursor).toBe('string');
  await recorded('payment-history', { key, body: { period: 'today', limit: 2, cursor } }, 200);
  await recorded('payment-history', { key, body: { period: 'month', cursor } }, 400);
  await recorded('payment-history', { key, body: { period: 'custom', start: '01/01/2020', end: '31/01/2020' } }, 200);
  await recorded('payment-history', { key, body: { period: 'decade' } }, 400);
  await recorded('payment-history', { key: `sk_${'x'.repeat(40)}`, body: { period: 'today' } }, 401);
}

async function driveInvoiceReadsAndDeletes() {
  const { key } = await newAccount();
  const invoice = await createInvoice(key);
  const reference_code = invoice.reference_code as string;
  await recorded('get-invoice', { key, pathParameters: { reference_code } }, 200);
  await recorded('get-invoice', { key, pathParameters: { reference_code: 'NoSuchInvoice0000000' } }, 404);
  await recorded('delete-invoice', { key, pathParameters: { reference_code } }, 200);
  await recorded('delete-invoice', { key, pathParameters: { reference_code } }, 200); // repeated
  const paid = await createInvoice(key);
  const payment = { reference_code: paid.reference_code, date: todayMonthFirst(), amount: '1.00', channel: 'Cash' };
  expect((await call('add-payment', { key, body: payment })).status).toBe(201);
  await recorded('delete-invoice', { key, pathParameters: { reference_code: paid.reference_code } }, 409);
  // The invoice's page and PDFs (docs/sending-invoices.md): the link's GetItem, then one BatchGetItem.
  const open = await createInvoice(key);
  const token = new URL(open.hosted_url).pathname.split('/')[2]!;
  await recorded('invoice-pdf', { key, pathParameters: { reference_code: open.reference_code } }, 200);
  await recorded('invoice-ubl', { key, pathParameters: { reference_code: open.reference_code } }, 422);
  await recorded('hosted-invoice-page', { pathParameters: { token } }, 200);
  await recorded('hosted-invoice-pdf', { pathParameters: { token } }, 200);
  await recorded('hosted-invoice-page', { pathParameters: { token: 'A'.repeat(24) } }, 404);
  await driveSends(key, paid.reference_code, reference_code);
}

/** Sends: queued (a job and the header in one transaction), replayed, refused for a voided invoice, 501 unconfigured. */
async function driveSends(key: string, live: string, voided: string) {
  const saved = process.env.MAIL_FROM;
  process.env.MAIL_FROM = '';
  resetConfig();
  await recorded('send-invoice', { key, pathParameters: { reference_code: live } }, 501);
  process.env.MAIL_FROM = 'invoices@example.com';
  resetConfig();
  try {
    await recorded('send-invoice', { key, pathParameters: { reference_code: live } }, 200);
    const keyed = {
      key,
      pathParameters: { reference_code: live },
      idempotencyKey: 'iam-send-1',
      body: { message: 'Hi' },
    };
    await recorded('email-invoice', keyed, 200);
    await recorded('email-invoice', keyed, 200); // replay
    await recorded(
      'email-invoice',
      { key, pathParameters: { reference_code: voided }, idempotencyKey: 'iam-send-2' },
      409,
    );
    // A client's statement by e-mail: the client, the statement's reads, the job's put.
    const invoice = (await call('get-invoice', { key, pathParameters: { reference_code: live } })).body.data;
    const pathParameters = { id: String(invoice.client.id) };
    const statement = { key, pathParameters, idempotencyKey: 'iam-statement-1', body: { period: 'today' } };
    await recorded('send-client-statement', statement, 200);
    await recorded('send-client-statement', statement, 200); // replay
    await recorded('send-client-statement', { key, pathParameters: { id: '999999' }, body: { period: 'today' } }, 404);
  } finally {
    if (saved === undefined) delete process.env.MAIL_FROM;
    else process.env.MAIL_FROM = saved;
    resetConfig();
  }
}

async function driveClients() {
  const { key } = await newAccount();
  const client = { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' };
  const created = await recorded('add-client', { key, body: client, idempotencyKey: 'iam-client-1' }, 201);
  await recorded('add-client', { key, body: client, idempotencyKey: 'iam-client-1' }, 201); // replay
  await recorded('add-client', { key, body: client }, 200); // existing email
  const id = String(created.body.data.id);
  await recorded('get-client', { key, pathParameters: { id } }, 200);
  await recorded('list-clients', { key, query: { limit: '1' } }, 200);
  await recorded('update-client', { key, pathParameters: { id }, body: { first_name: 'Adaeze' } }, 200);
  await recorded('update-client', { key, pathParameters: { id }, body: { email: uniqueEmail() } }, 200); // moves the email
  const other = await recorded('add-client', { key, body: { ...client, email: uniqueEmail() } }, 201);
  await recorded('update-client', { key, pathParameters: { id }, body: { email: other.body.data.email } }, 409);
  await recorded('delete-client', { key, pathParameters: { id } }, 200);
  await recorded('delete-client', { key, pathParameters: { id } }, 200); // repeated
  await recorded('get-client', { key, pathParameters: { id: '999999' } }, 404);
}

async function driveGetPayment() {
  const { key } = await newAccount();
  const invoice = await createInvoice(key);
  const reference_code = invoice.reference_code as string;
  await recorded('get-payment', { key, pathParameters: { reference_code } }, 404); // none yet
  const payment = { reference_code, date: todayMonthFirst(), amount: '1.00', channel: 'Cash' };
  expect((await call('add-payment', { key, body: payment })).status).toBe(201);
  await recorded('get-payment', { key, pathParameters: { reference_code } }, 200);
}

async function driveInvoiceHistory() {
  const { key } = await newAccount();
  for (let i = 0; i < 3; i++) await createInvoice(key);
  const page = await recorded('invoice-history', { key, body: { period: 'today', limit: 2 } }, 200);
  const cursor = page.body.data.next_cursor as string;
  await recorded('invoice-history', { key, body: { period: 'today', limit: 2, cursor } }, 200);
  await recorded('invoice-history', { key, body: { period: 'today', payment_status: 'paid' } }, 200);
  await recorded('invoice-history', { key, body: { period: 'decade' } }, 400);
}

async function driveRecurringInvoices() {
  const { key } = await newAccount();
  const { due_date: _none, ...invoice } = invoiceBody();
  const schedule = { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 14, end: { after: 3 } };
  const created = await recorded('create-recurring-invoice', { key, body: { ...invoice, schedule } }, 201);
  const pathParameters = { id: String(created.body.data.id) };
  await recorded('get-recurring-invoice', { key, pathParameters }, 200);
  await recorded('list-recurring-invoices', { key }, 200);
  for (const action of ['pause', 'resume', 'cancel'] as const)
    await recorded(`${action}-recurring-invoice`, { key, pathParameters }, 200);
}

const DRIVERS: Record<ApiFunctionName, (() => Promise<void>)[]> = {
  invoices: [driveAddInvoice, driveInvoiceReadsAndDeletes, driveClients, driveRecurringInvoices],
  payments: [driveAddPayment, driveGetPayment],
  history: [drivePaymentHistory, driveInvoiceHistory],
};

describe('each API function is granted exactly the DynamoDB actions its routes perform', () => {
  const stage = synthStage('prod');
  const tableId = logicalIdAt(stage, 'Table/Resource');

  it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))('%s', async (name) => {
    for (const drive of DRIVERS[name]) await drive();
    const done = performed.get(name)!;
    const granted = dynamoGrantsOf(stage, FUNCTION_IDS[name], tableId);
    expect(granted.other).toEqual([]);
    expect({ table: granted.table, indexes: granted.indexes }).toEqual({
      table: [...done.table].sort(),
      indexes: Object.fromEntries([...done.indexes].map(([index, actions]) => [index, [...actions].sort()])),
    });
    // Only the payments index exists; a grant on any other name would be a typo.
    for (const index of Object.keys(granted.indexes)) expect(index).toBe(TABLE.listingIndex.name);
  });
});

describe('actionsOf', () => {
  it('authorises a transaction per contained action, and a query on its index', () => {
    const transaction: DynamoCall = {
      command: 'TransactWriteItemsCommand',
      input: { TransactItems: [{ Put: {} }, { Update: {} }, { ConditionCheck: {} }] },
    };
    expect(actionsOf(transaction).map((a) => a.action)).toEqual([
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:ConditionCheckItem',
    ]);
    expect(actionsOf({ command: 'QueryCommand', input: { IndexName: 'GSI1' } })).toEqual([
      { action: 'dynamodb:Query', index: 'GSI1' },
    ]);
    expect(actionsOf({ command: 'GetItemCommand', input: {} })).toEqual([{ action: 'dynamodb:GetItem' }]);
  });
});
