/**
 * Ambiguous outcomes against a real, paused DynamoDB Local (SIGSTOP on its Java process), the way an
 * operator saw a 503 for a payment that was then recorded. This file starts ITS OWN DynamoDB Local and
 * runs the handlers in this process against it, so pausing it disturbs no other test file.
 *
 * - a transaction in flight when the database stops → 504 outcome_unknown (never 503), and the payment
 *   may be in history once the database resumes; a retry with the same Idempotency-Key gives exactly one;
 * - a pause before anything was sent → 503, and the payment never appears.
 *
 * A pause is only a pause once every thread of the JVM has stopped: kill(SIGSTOP) returns before a
 * multi-threaded process is stopped (one of its threads must run to begin the group stop, and on a busy machine
 * the others keep serving meanwhile). Sending the next request right after kill() let DynamoDB Local answer it
 * now and then — 7 requests in 200 at a load average of about 10 — so "a pause before the read" paused the
 * database after the read, before the transaction, and the function rightly answered 504 (issue 27: the
 * unexplained 504 of the second test). `pause()` therefore waits until /proc shows every thread stopped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';
import { warmUp } from '../../infra/local/dynamodb-local-warm-up.ts';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { resetConfig } from '../../shared/config.ts';
import { call } from '../support/api.ts';
import { accountWithInvoiceToPay, sleep } from './helpers.ts';

let database: DynamoDbLocal;
let paused = false;

/** Every thread of `pid` stopped (state T or t in /proc/<pid>/task/<tid>/stat) or exiting (Z, X). */
function everyThreadStopped(pid: number): boolean {
  return readdirSync(`/proc/${pid}/task`).every((thread) => {
    try {
      const state = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ').at(-1)![0]!;
      return 'TtZX'.includes(state);
    } catch {
      return true; // the thread is gone
    }
  });
}

/** SIGSTOP, and returns once it has taken effect (see above): nothing sent after this is answered until resume(). */
const pause = async () => {
  const pid = database.process.pid!;
  paused = true;
  process.kill(pid, 'SIGSTOP');
  const deadline = Date.now() + 10_000;
  while (!everyThreadStopped(pid)) {
    if (Date.now() > deadline) throw new Error(`DynamoDB Local (pid ${pid}) still runs 10 s after SIGSTOP`);
    await sleep(1);
  }
};
const resume = () => {
  if (paused) process.kill(database.process.pid!, 'SIGCONT');
  paused = false;
};

beforeAll(async () => {
  database = await startDynamoDbLocal();
  await warmUp(database.endpoint); // a cold JVM can miss the functions' 1.5 s timeouts under load (infra/local/dynamodb-local-warm-up.ts)
  await ensureTable(database.endpoint, 'invoicing-paused');
  // Before the first DynamoDB call of this file builds the client: this file's handlers use this database only.
  process.env.DYNAMODB_ENDPOINT = database.endpoint;
  process.env.TABLE_NAME = 'invoicing-paused';
  resetConfig(); // the configuration is read once per process: read it again with this file's database
}, 120_000);

afterAll(async () => {
  dynamoHooks.clear();
  resume();
  await database?.stop();
});

/** Pauses DynamoDB Local right before the first call of `command` (the request is then sent into a stopped server). */
function pauseBefore(command: string) {
  let done = false;
  return dynamoHooks.add({
    before: async (c) => {
      if (c.command === command && !done) {
        done = true;
        await pause();
      }
    },
  });
}

async function paymentIds(key: string): Promise<number[]> {
  const page = await call('payment-history', { key, body: { period: 'today', limit: 500 } });
  expect(page.status, page.rawBody).toBe(200);
  return page.body.data.payments.map((p: { id: number }) => p.id);
}

async function setup() {
  const { key, payment } = await accountWithInvoiceToPay();
  await paymentIds(key); // warms the key cache: the pause hits the payment's own calls
  return { key, payment };
}

describe('a paused DynamoDB Local', { timeout: 90_000 }, () => {
  it('transaction in flight when the database stops → 504 outcome_unknown; the payment may be in history; the keyed retry gives exactly one', async () => {
    const { key, payment } = await setup();
    const remove = pauseBefore('TransactWriteItemsCommand');
    const started = Date.now();
    const answered = await call('add-payment', { key, body: payment, idempotencyKey: 'paused-1' });
    remove();
    const elapsed = Date.now() - started;
    expect(answered.status, answered.rawBody).toBe(504);
    expect(answered.body.code).toBe('outcome_unknown');
    expect(answered.body.message).toMatch(/may have been recorded/);
    expect(answered.headers['retry-after']).toBeUndefined();
    expect(elapsed).toBeLessThan(10_000); // answered by the function itself, before its timeout

    resume();
    // The request the function sent before the pause is still in the stopped server's socket: it commits now.
    let ids: number[] = [];
    for (let i = 0; i < 40 && ids.length === 0; i++) {
      ids = await paymentIds(key);
      if (ids.length === 0) await sleep(250);
    }
    expect(ids).toHaveLength(1);

    const retry = await call('add-payment', { key, body: payment, idempotencyKey: 'paused-1' });
    expect(retry.status, retry.rawBody).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await paymentIds(key)).toEqual([retry.body.data.id]);
  });

  it('a pause before the transaction was sent → 503, and the payment never appears', async () => {
    const { key, payment } = await setup();
    let transactions = 0;
    const count = dynamoHooks.add({
      before: (c) => void (c.command === 'TransactWriteItemsCommand' && transactions++),
    });
    const remove = pauseBefore('BatchGetItemCommand');
    const answered = await call('add-payment', { key, body: payment, idempotencyKey: 'paused-2' });
    remove();
    count();
    // First whether a transaction left at all: a 504 is right if one did (the pause then missed the read).
    expect(transactions, `answered ${answered.status} ${answered.rawBody}`).toBe(0);
    expect(answered.status, answered.rawBody).toBe(503);
    expect(answered.body.code).toBe('service_unavailable');

    resume();
    await sleep(3_000);
    expect(await paymentIds(key)).toEqual([]);
    // The key is free: the retry writes the payment, once.
    const retry = await call('add-payment', { key, body: payment, idempotencyKey: 'paused-2' });
    expect(retry.status, retry.rawBody).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await paymentIds(key)).toEqual([retry.body.data.id]);
  });
});
