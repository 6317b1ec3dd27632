/**
 * Fault injection through `dynamoHooks` (infra/tools/dynamo-hooks.ts): throttling, timeouts, cancelled
 * transactions and lost answers to committed transactions. The client gets the envelope: 503 + Retry-After
 * only when nothing was written, 504 outcome_unknown when a transaction may have committed (after the
 * function resent it with the same ClientRequestToken until its deadline), never a partial write; an
 * Idempotency-Key retry returns the committed result exactly once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handler as addPaymentHandler } from '../../functions/payments/handler.ts';
import { type DynamoCall, dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { type CallResult, call, invoiceBody, lambdaContext, makeEvent, newAccount } from '../support/api.ts';
import {
  accountState,
  accountWithInvoiceToPay,
  expectErrorEnvelope,
  fullHistory,
  idempotencyRecordExists,
  invoiceHeader,
  kobo,
  NOTHING,
  sleep,
} from './helpers.ts';

afterEach(() => {
  dynamoHooks.clear();
});

const awsError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`injected ${name}`), { name, $fault: 'server', ...extra });

/** Counts calls per command while the test runs. */
function countCalls() {
  const counts = new Map<string, number>();
  const remove = dynamoHooks.add({
    before: (c: DynamoCall) => void counts.set(c.command, (counts.get(c.command) ?? 0) + 1),
  });
  return { get: (command: string) => counts.get(command) ?? 0, remove };
}

const setup = accountWithInvoiceToPay;

/** Asserts the invoice and the account are exactly as before: no partial write of any kind. */
async function expectUntouched(companyId: number, referenceCode: string, before: { state: unknown; header: unknown }) {
  expect(await accountState(companyId)).toEqual(before.state);
  expect(await requestOwnedHeader(referenceCode)).toEqual(before.header);
}

/**
 * The account and the invoice header as a request could change them. The header's wake-index keys (GSI2) are left
 * out: the sweep moves them (another test file may sweep the shared table meanwhile), never a request that failed.
 */
async function snapshot(companyId: number, referenceCode: string) {
  return { state: await accountState(companyId), header: await requestOwnedHeader(referenceCode) };
}

async function requestOwnedHeader(referenceCode: string) {
  const header = await invoiceHeader(referenceCode);
  if (header) {
    delete header.GSI2PK;
    delete header.GSI2SK;
  }
  return header;
}

/** The Lambda context's time left where a case waits for the deadline: any deadline shows it, and the suite waits less. */
const SHORT_INVOCATION_MS = 4_000;

describe('fault injection: throttling and timeouts', () => {
  const failures: [string, () => Error][] = [
    ['ProvisionedThroughputExceededException', () => awsError('ProvisionedThroughputExceededException')],
    ['ThrottlingException', () => awsError('ThrottlingException')],
    ['RequestLimitExceeded', () => awsError('RequestLimitExceeded')],
    ['TimeoutError', () => awsError('TimeoutError')],
    ['ECONNRESET', () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
  ];
  const commands = ['GetItemCommand', 'BatchGetItemCommand', 'TransactWriteItemsCommand'];

  // A refusal (throttling) is conclusive: nothing was applied. A timeout or a dropped connection is not:
  // on a read it is a plain 503, on the transaction the function resends it with the same ClientRequestToken
  // until it learns the outcome or its deadline comes (then 504 outcome_unknown, never a plain 503).
  const ambiguousOnTransaction = new Set(['TimeoutError', 'ECONNRESET']);

  it.each(failures)(
    '%s on any call of add-payment → 503 (or 504 when the transaction may have been sent) + envelope, nothing written; the key stays free',
    async (_name, makeError) => {
      const { key, account, payment } = await setup();
      for (const command of commands) {
        clearAuthCache(); // so that the key lookup (GetItem) runs too
        const before = await snapshot(account.companyId, payment.reference_code);
        const idempotencyKey = `throttle-${command}-${_name}`;
        const tokens = new Set<unknown>();
        const remove = dynamoHooks.add({
          before: (c) => {
            if (c.command === 'TransactWriteItemsCommand') tokens.add(c.input.ClientRequestToken);
            if (c.command === command) throw makeError();
          },
        });
        // A short invocation: the ambiguous cases resend until its deadline, which need not be the functions' 10 s.
        const result = await call('add-payment', { key, body: payment, idempotencyKey, budgetMs: SHORT_INVOCATION_MS });
        remove();
        const ambiguous = command === 'TransactWriteItemsCommand' && ambiguousOnTransaction.has(_name);
        expectErrorEnvelope(result, ambiguous ? 504 : 503);
        expect(result.body.code).toBe(ambiguous ? 'outcome_unknown' : 'service_unavailable');
        if (ambiguous) {
          expect(result.headers['retry-after']).toBeUndefined();
          expect(result.body.message).toContain('same Idempotency-Key');
          // Every resend carried the one token of the transaction.
          expect(tokens.size).toBe(1);
          expect([...tokens][0]).toEqual(expect.any(String));
        }
        expect(result.rawBody).not.toContain(_name);
        await expectUntouched(account.companyId, payment.reference_code, before);
        expect(await idempotencyRecordExists(account.companyId, 'add-payment', idempotencyKey)).toBe(false);
      }
      // After the fault, a retry with the same key is a fresh, single write.
      const retry = await call('add-payment', {
        key,
        body: payment,
        idempotencyKey: `throttle-TransactWriteItemsCommand-${_name}`,
      });
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect((await accountState(account.companyId)).payments).toBe(1);
    },
    60_000,
  );

  it('throttling on add-invoice and history → 503 + Retry-After, no invoice, no client, no sequence advanced', async () => {
    const { key, account } = await newAccount();
    for (const command of ['BatchGetItemCommand', 'TransactWriteItemsCommand']) {
      const remove = dynamoHooks.add({
        before: (c) => {
          if (c.command === command) throw awsError('ProvisionedThroughputExceededException');
        },
      });
      const result = await call('add-invoice', {
        key,
        body: invoiceBody({ merchant_ref: 'M-1' }),
        idempotencyKey: `inv-${command}`,
      });
      remove();
      expectErrorEnvelope(result, 503);
      expect(await accountState(account.companyId)).toEqual(NOTHING);
      expect(await idempotencyRecordExists(account.companyId, 'add-invoice', `inv-${command}`)).toBe(false);
    }
    // merchant_ref was not taken by the failed attempts.
    expect((await call('add-invoice', { key, body: invoiceBody({ merchant_ref: 'M-1' }) })).status).toBe(201);

    const remove = dynamoHooks.add({
      before: (c) => {
        if (c.command === 'QueryCommand') throw awsError('ThrottlingException');
      },
    });
    const history = await call('payment-history', { key, body: { period: 'today' } });
    remove();
    expectErrorEnvelope(history, 503);
  });

  /** Calls add-payment with a Lambda context that has `budgetMs` left. */
  async function paymentWithBudget(
    key: string,
    payment: unknown,
    idempotencyKey: string,
    budgetMs: number,
  ): Promise<CallResult> {
    const deadline = Date.now() + budgetMs;
    const context = { ...lambdaContext(), getRemainingTimeInMillis: () => deadline - Date.now() };
    const raw = (await addPaymentHandler(
      makeEvent('add-payment', { key, body: payment, idempotencyKey }),
      context,
    )) as { statusCode: number; headers: Record<string, string>; body: string };
    return { status: raw.statusCode, headers: raw.headers, body: JSON.parse(raw.body), rawBody: raw.body };
  }

  it('a transaction still in flight at the deadline → 504 outcome_unknown (never 503); it commits later; the keyed retry returns that one payment', async () => {
    const { key, account, payment } = await setup();
    await call('add-payment', { key, body: { ...payment, amount: '1' } }); // warm the auth cache
    const idempotencyKey = 'slow-transaction';
    let slowed = 0;
    const remove = dynamoHooks.add({
      before: async (c) => {
        if (c.command === 'TransactWriteItemsCommand' && slowed++ === 0) await sleep(3_000);
      },
    });
    // ~2.5 s left: database calls must end by ~2 s; the transaction is on its way and has not answered.
    const started = Date.now();
    const result = await paymentWithBudget(key, payment, idempotencyKey, 2_500);
    expect(Date.now() - started).toBeLessThan(2_500);
    expectErrorEnvelope(result, 504);
    expect(result.body.code).toBe('outcome_unknown');

    // The slow transaction commits after the 504 (as it can on AWS): the key makes the retry safe.
    await sleep(2_000);
    remove();
    let retry = await call('add-payment', { key, body: payment, idempotencyKey });
    for (let i = 0; i < 20 && retry.status === 409 && retry.body.code === 'idempotency_request_in_progress'; i++) {
      await sleep(100);
      retry = await call('add-payment', { key, body: payment, idempotencyKey });
    }
    expect(retry.status, retry.rawBody).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const { payments } = await fullHistory(key, { period: 'today' });
    expect(payments.filter((p) => p.amount === '250.00').map((p) => p.id)).toEqual([retry.body.data.id]);
    expect((await accountState(account.companyId)).payments).toBe(2);
  });

  it('too little time left to send the transaction → 503, and it is never sent', async () => {
    const { key, account, payment } = await setup();
    await call('add-payment', { key, body: { ...payment, amount: '1' } }); // warm the auth cache
    const counter = countCalls();
    const result = await paymentWithBudget(key, payment, 'late', 1_200);
    counter.remove();
    expectErrorEnvelope(result, 503);
    expect(counter.get('TransactWriteItemsCommand')).toBe(0);
    expect((await accountState(account.companyId)).payments).toBe(1);
    expect(await idempotencyRecordExists(account.companyId, 'add-payment', 'late')).toBe(false);
  });
});

describe('fault injection: cancelled transactions are retried a bounded number of times', () => {
  /** Cancels every TransactWriteItems with `reasons(actionCount)` as CancellationReasons; `times` limits how often. */
  function cancelTransactions(reasons: (actions: number) => { Code: string }[], times = Infinity) {
    let cancelled = 0;
    return dynamoHooks.add({
      before: (c) => {
        if (c.command !== 'TransactWriteItemsCommand' || cancelled >= times) return;
        cancelled++;
        const actions = (c.input.TransactItems as unknown[]).length;
        throw awsError('TransactionCanceledException', { CancellationReasons: reasons(actions) });
      },
    });
  }

  const conflictOnHeader = (actions: number) =>
    Array.from({ length: actions }, (_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' }));
  const conditionOnHeader = (actions: number) =>
    Array.from({ length: actions }, (_, i) => ({ Code: i === 0 ? 'ConditionalCheckFailed' : 'None' }));

  it.each([
    ['TransactionConflict', conflictOnHeader],
    ['ConditionalCheckFailed', conditionOnHeader],
  ])(
    '%s on every attempt → attempts until the invocation has no time for another, then 503 + Retry-After in time, nothing written',
    async (_code, reasons) => {
      const { key, account, payment } = await setup();
      await call('add-payment', { key, body: { ...payment, amount: '1' } }); // warm the auth cache
      const before = await snapshot(account.companyId, payment.reference_code);
      const counter = countCalls();
      const remove = cancelTransactions(reasons);
      // 6 s: at least a dozen attempts even when a loaded machine makes each round trip to DynamoDB Local slow.
      const budgetMs = 6_000;
      const started = Date.now();
      const result = await call('add-payment', { key, body: payment, budgetMs });
      const elapsed = Date.now() - started;
      remove();
      counter.remove();
      expectErrorEnvelope(result, 503);
      // Retried for as long as the budget allowed (well over the 8 fixed attempts this once had)…
      expect(counter.get('TransactWriteItemsCommand')).toBeGreaterThan(8);
      expect(counter.get('BatchGetItemCommand')).toBe(counter.get('TransactWriteItemsCommand'));
      // …and answered before the function's time ran out.
      expect(elapsed).toBeLessThan(budgetMs);
      await expectUntouched(account.companyId, payment.reference_code, before);
    },
  );

  it('a conflict on the Idempotency-Key record → 409 idempotency_request_in_progress + Retry-After after one attempt; the key stays free', async () => {
    const { key, account, payment } = await setup();
    const before = await snapshot(account.companyId, payment.reference_code);
    const counter = countCalls();
    const remove = cancelTransactions((actions) =>
      Array.from({ length: actions }, (_, i) => ({ Code: i === actions - 1 ? 'TransactionConflict' : 'None' })),
    );
    const result = await call('add-payment', { key, body: payment, idempotencyKey: 'in-flight' });
    remove();
    counter.remove();
    expectErrorEnvelope(result, 409);
    expect(result.body.code).toBe('idempotency_request_in_progress');
    expect(Number(result.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(counter.get('TransactWriteItemsCommand')).toBe(1);
    await expectUntouched(account.companyId, payment.reference_code, before);
    expect(await idempotencyRecordExists(account.companyId, 'add-payment', 'in-flight')).toBe(false);
    const retry = await call('add-payment', { key, body: payment, idempotencyKey: 'in-flight' });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('two cancelled attempts then success → 201 on the third attempt, exactly one payment', async () => {
    const { key, account, payment } = await setup();
    const counter = countCalls();
    const remove = cancelTransactions(conflictOnHeader, 2);
    const result = await call('add-payment', { key, body: payment, idempotencyKey: 'third-time' });
    remove();
    counter.remove();
    expect(result.status, result.rawBody).toBe(201);
    expect(counter.get('TransactWriteItemsCommand')).toBe(3);
    expect((await accountState(account.companyId)).payments).toBe(1);
    expect(Number((await invoiceHeader(payment.reference_code))!.amount_paid)).toBe(25_000);
  });

  it('a throttled transaction (ThrottlingError reason) → 503 + Retry-After, nothing written', async () => {
    const { key, account, payment } = await setup();
    const before = await snapshot(account.companyId, payment.reference_code);
    const remove = cancelTransactions((actions) =>
      Array.from({ length: actions }, (_, i) => ({ Code: i === 0 ? 'ThrottlingError' : 'None' })),
    );
    const result = await call('add-payment', { key, body: payment });
    remove();
    expectErrorEnvelope(result, 503);
    await expectUntouched(account.companyId, payment.reference_code, before);
  });
});

describe('fault injection: the answer to a committed transaction is lost', () => {
  /** Throws after the first `times` TransactWriteItems succeeded, as if their answers were lost on the way back. */
  function loseAnswers(error: () => Error, times = 1) {
    let lost = 0;
    const tokens: unknown[] = [];
    const remove = dynamoHooks.add({
      after: (c) => {
        if (c.command !== 'TransactWriteItemsCommand') return;
        tokens.push(c.input.ClientRequestToken);
        if (lost < times) {
          lost++;
          throw error();
        }
      },
    });
    return { remove, tokens };
  }

  it.each([
    ['a lost connection', () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['an unexpected error', () => new Error('process crashed')],
  ])(
    'add-payment, %s: the same ClientRequestToken is sent again, DynamoDB confirms the commit → 201, exactly one payment',
    async (_label, error) => {
      const { key, account, payment } = await setup();
      const lost = loseAnswers(error);
      const result = await call('add-payment', { key, body: payment });
      lost.remove();
      expect(result.status, result.rawBody).toBe(201);
      expect(lost.tokens).toHaveLength(2);
      expect(lost.tokens[1]).toBe(lost.tokens[0]);
      expect((await accountState(account.companyId)).payments).toBe(1);
      expect(Number((await invoiceHeader(payment.reference_code))!.amount_paid)).toBe(25_000);
    },
  );

  it('add-payment: no confirmation before the deadline → 504 outcome_unknown; the payment is committed; the keyed retry returns it exactly once', async () => {
    const { key, account, payment } = await setup();
    const idempotencyKey = 'lost-answers';
    const lost = loseAnswers(() => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), Infinity);
    const failed = await call('add-payment', { key, body: payment, idempotencyKey, budgetMs: SHORT_INVOCATION_MS });
    lost.remove();
    expectErrorEnvelope(failed, 504);
    expect(failed.body.code).toBe('outcome_unknown');
    expect(new Set(lost.tokens).size).toBe(1);

    // Committed as a whole: payment, balance, sequence and the key's record.
    expect((await accountState(account.companyId)).payments).toBe(1);
    expect(Number((await invoiceHeader(payment.reference_code))!.amount_paid)).toBe(25_000);
    expect(await idempotencyRecordExists(account.companyId, 'add-payment', idempotencyKey)).toBe(true);

    const retry = await call('add-payment', { key, body: payment, idempotencyKey });
    expect(retry.status, retry.rawBody).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.invoice.amount_paid).toBe('250.00');
    const again = await call('add-payment', { key, body: { ...payment, amount: 250 }, idempotencyKey });
    expect(again.status).toBe(201);
    expect(again.rawBody).toBe(retry.rawBody);

    const { payments } = await fullHistory(key, { period: 'today' });
    expect(payments.map((p) => p.id)).toEqual([retry.body.data.id]);
    expect(kobo(payments[0]!.invoice.amount_paid)).toBe(25_000);
  }, 30_000);

  it('add-payment: confirmation goes on until the invocation deadline, past the 8 s that bound it only without one → 201', async () => {
    const { key, account, payment } = await setup();
    // Answers lost for 9 s (more than the 8 s budget of a call outside any invocation), in an invocation of 20 s.
    const until = Date.now() + 9_000;
    const tokens: unknown[] = [];
    const remove = dynamoHooks.add({
      after: (c) => {
        if (c.command !== 'TransactWriteItemsCommand') return;
        tokens.push(c.input.ClientRequestToken);
        if (Date.now() < until) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      },
    });
    const result = await call('add-payment', {
      key,
      body: payment,
      idempotencyKey: 'long-confirmation',
      budgetMs: 20_000,
    });
    remove();
    expect(result.status, result.rawBody).toBe(201);
    expect(new Set(tokens).size).toBe(1);
    expect((await accountState(account.companyId)).payments).toBe(1);
  }, 30_000);

  it('add-invoice: no confirmation before the deadline → 504 outcome_unknown; the keyed retry returns that one invoice', async () => {
    const { key, account } = await newAccount();
    const body = invoiceBody({ merchant_ref: 'CRASH-1' });
    const lost = loseAnswers(() => new Error('process crashed'), Infinity);
    const failed = await call('add-invoice', {
      key,
      body,
      idempotencyKey: 'crash-invoice',
      budgetMs: SHORT_INVOCATION_MS,
    });
    lost.remove();
    expectErrorEnvelope(failed, 504);
    expect(failed.body.code).toBe('outcome_unknown');
    expect(await accountState(account.companyId)).toEqual({ ...NOTHING, invoices: 1, clients: 1 });

    const retry = await call('add-invoice', { key, body, idempotencyKey: 'crash-invoice' });
    expect(retry.status, retry.rawBody).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await invoiceHeader(retry.body.data.reference_code)).toBeDefined();
    expect((await call('add-invoice', { key, body, idempotencyKey: 'crash-invoice' })).rawBody).toBe(retry.rawBody);
    // Still one invoice, one client; the merchant_ref belongs to it.
    expect(await accountState(account.companyId)).toEqual({ ...NOTHING, invoices: 1, clients: 1 });
    const duplicate = await call('add-invoice', { key, body: invoiceBody({ merchant_ref: 'CRASH-1' }) });
    expectErrorEnvelope(duplicate, 409);
    expect(duplicate.body.code).toBe('duplicate_merchant_ref');
  }, 30_000);
});
