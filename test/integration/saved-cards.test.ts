/**
 * Saved cards (docs/getting-paid-online.md "Saved cards"): an invoice with `tokenize` paid by a reusable card gives
 * its client a saved card (the service's own `ctok_` token, Paystack's authorization sealed), listed by
 * `GET /clients/{id}`, forgotten by `DELETE /clients/{id}/cards/{card_token}`; a `card_token` of this service on a new
 * invoice must be one of that client's cards, while any other value is still accepted as before.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, createInvoice, newAccount } from '../support/api.ts';
import { connectedAccount, invoiceToPay, payInvoice, returnFrom, usePaystack } from '../support/online-payments.ts';

const fixture = usePaystack();

const client = { first_name: 'Ada', last_name: 'Obi', email: 'ada.cards@example.com', phone: '+2348012345678' };

async function paidWithCard(connected: Awaited<ReturnType<typeof connectedAccount>>, overrides = {}) {
  const { invoice, token } = await invoiceToPay(connected.key, { client, tokenize: 'true', ...overrides });
  const { reference } = await payInvoice(fixture, connected.secretKey, token);
  await returnFrom(token, reference);
  const latest = await call('get-payment', {
    key: connected.key,
    pathParameters: { reference_code: invoice.reference_code },
  });
  return { invoice, payment: latest.body.data };
}

describe('saved cards', () => {
  it('a tokenize invoice paid by card saves it once: the payment names it, the client lists it', async () => {
    const connected = await connectedAccount(fixture, { tokenizationEnabled: true });
    const { invoice, payment } = await paidWithCard(connected);
    expect(payment.card_token).toMatch(/^ctok_[A-Za-z0-9_-]{24}$/);
    expect(payment.card).toEqual({ brand: 'visa', last4: '4081', exp_month: '12', exp_year: '2030' });
    const stored = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.savedCard(connected.account.companyId, payment.card_token),
      }),
    );
    expect(stored.Item?.authorization_sealed).toBeInstanceOf(Uint8Array);
    expect(JSON.stringify(stored.Item)).not.toMatch(/AUTH_/);
    const again = await paidWithCard(connected, { client_id: String(invoice.client_id), client: undefined });
    expect(again.payment.card_token).toBe(payment.card_token);
    const shown = await call('get-client', { key: connected.key, pathParameters: { id: String(invoice.client_id) } });
    expect(shown.body.data.cards).toEqual([
      {
        card_token_last4: payment.card_token.slice(-4),
        brand: 'visa',
        last4: '4081',
        exp_month: '12',
        exp_year: '2030',
      },
    ]);
  });

  it('no card without tokenize; an account without tokenization lists none', async () => {
    const connected = await connectedAccount(fixture, { tokenizationEnabled: true });
    const { payment } = await paidWithCard(connected, { tokenize: 'false' });
    expect(payment.card_token).toBeUndefined();
    const { key } = await newAccount();
    const plain = await createInvoice(key);
    const shown = await call('get-client', { key, pathParameters: { id: String(plain.client_id) } });
    expect(shown.body.data.cards).toEqual([]);
  });

  it('card_token on a new invoice: its client’s card is accepted; another’s or an unknown ctok_ is 400; others as before', async () => {
    const connected = await connectedAccount(fixture, { tokenizationEnabled: true });
    const { invoice, payment } = await paidWithCard(connected);
    const mine = await createInvoice(connected.key, {
      client_id: String(invoice.client_id),
      client: undefined,
      card_token: payment.card_token,
    });
    expect(mine.card_token_last4).toBe(payment.card_token.slice(-4));
    const stranger = await call('add-invoice', {
      key: connected.key,
      body: {
        client: { ...client, email: 'someone.else@example.com' },
        due_date: '12/30/2030',
        fee_bearer: 'client',
        items: [{ item: 'X', description: 'Y', unit_cost: '10', quantity: '1' }],
        card_token: payment.card_token,
      },
    });
    expect([stranger.status, stranger.body.code, stranger.body.errors[0].field]).toEqual([
      400,
      'invalid_card_token',
      'card_token',
    ]);
    const unknown = await call('add-invoice', {
      key: connected.key,
      body: {
        client_id: String(invoice.client_id),
        due_date: '12/30/2030',
        fee_bearer: 'client',
        items: [{ item: 'X', description: 'Y', unit_cost: '10', quantity: '1' }],
        card_token: 'ctok_AAAAAAAAAAAAAAAAAAAAAAAA',
      },
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid_card_token']);
    const theirs = await createInvoice(connected.key, { card_token: 'tok_4242424242424242_9876' });
    expect(theirs.card_token_last4).toBe('9876');
  });

  it('DELETE /clients/{id}/cards/{card_token} forgets it: listed no more, refused on a new invoice; again: 404', async () => {
    const connected = await connectedAccount(fixture, { tokenizationEnabled: true });
    const { invoice, payment } = await paidWithCard(connected);
    const path = { id: String(invoice.client_id), card_token: payment.card_token };
    const forgotten = await call('forget-client-card', { key: connected.key, pathParameters: path });
    expect([forgotten.status, forgotten.body.message, forgotten.body.data.cards]).toEqual([200, 'Card removed.', []]);
    const again = await call('forget-client-card', { key: connected.key, pathParameters: path });
    expect([again.status, again.body.code]).toEqual([404, 'card_not_found']);
    const other = await newAccount({ tokenizationEnabled: true });
    const elsewhere = await call('forget-client-card', { key: other.key, pathParameters: path });
    expect(elsewhere.status).toBe(404);
    const refused = await call('add-invoice', {
      key: connected.key,
      body: {
        client_id: String(invoice.client_id),
        due_date: '12/30/2030',
        fee_bearer: 'client',
        items: [{ item: 'X', description: 'Y', unit_cost: '10', quantity: '1' }],
        card_token: payment.card_token,
      },
    });
    expect(refused.body.code).toBe('invalid_card_token');
    // Paid with again, it is a new saved card (its signature item went with it).
    const anew = await paidWithCard(connected, { client_id: String(invoice.client_id), client: undefined });
    expect(anew.payment.card_token).not.toBe(payment.card_token);
  });
});
