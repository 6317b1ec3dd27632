/**
 * Child process of logs.test.ts: invokes the real handlers (as Lambda would, with a Lambda context) with
 * the environment the test gives, so that stdout holds exactly what CloudWatch would receive. Writes the
 * secrets and bodies it used as one JSON line to stderr for the test to look for.
 */

import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { createAccount } from '../../shared/store/accounts.ts';
import { call, invoiceBody, todayMonthFirst } from '../support/api.ts';

const { secretKey } = await createAccount({ name: 'Log Test Co' });
const cardToken = 'tok_SECRETCARD_9f8e7d6c5b4a';
const marker = 'BODY-MARKER-71d3c0';
const invoice = invoiceBody({
  card_token: cardToken,
  metadata: { note: marker },
  items: [{ item: marker, description: marker, unit_cost: '1,000.00', quantity: 3 }],
});
const bodies: string[] = [JSON.stringify(invoice)];

const only = process.argv[2];
if (only === 'one') {
  await call('payment-history', { key: secretKey, body: { period: 'today' } });
} else {
  const created = await call('add-invoice', { key: secretKey, body: invoice });
  const payment = {
    reference_code: created.body.data.reference_code,
    date: todayMonthFirst(),
    amount: '1,250.50',
    channel: 'Cash',
  };
  bodies.push(JSON.stringify(payment));
  await call('add-payment', { key: secretKey, body: payment });
  await call('payment-history', { key: secretKey, body: { period: 'today' } });
  await call('add-payment', { key: secretKey, body: { ...payment, amount: '999999' }, idempotencyKey: 'idem-1' }); // stored 409
  await call('add-invoice', { key: secretKey, body: { ...invoice, due_date: '02/30/2030' } }); // 400
  // 401: the last character changed (a key ending in X would have stayed valid one run in 62).
  const wrongLast = secretKey.endsWith('X') ? 'Y' : 'X';
  await call('add-invoice', { key: `${secretKey.slice(0, -1)}${wrongLast}`, body: invoice });
  const remove = dynamoHooks.add({
    before(c) {
      // On a read: a failed transaction is not a plain 500 (its outcome is unknown: 504).
      if (c.command === 'BatchGetItemCommand') throw new Error('simulated failure');
    },
  });
  await call('add-invoice', { key: secretKey, body: invoice }); // 500
  remove();
}
process.stderr.write(`DRIVER ${JSON.stringify({ secretKey, cardToken, marker, bodies })}\n`);
