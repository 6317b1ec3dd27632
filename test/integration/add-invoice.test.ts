/** Money, due dates and add invoice through the API (docs/api.md "Money", "Dates and time", "Add invoice"). */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, createInvoice, invoiceBody, newAccount, uniqueEmail } from '../support/api.ts';

const item = (overrides: Record<string, unknown> = {}) => ({
  item: 'Thing',
  description: 'A thing',
  unit_cost: '10.00',
  quantity: '1',
  ...overrides,
});

describe('invoice shape', () => {
  it('returns the interface shape with its type quirks and the additive fields', async () => {
    const { key, account } = await newAccount();
    const result = await call('add-invoice', {
      key,
      body: invoiceBody({ due_date: '12/30/2016', items: [item({ unit_cost: '1,500.5', quantity: 3 })] }),
    });
    expect(result.status).toBe(201);
    const data = result.body.data;
    expect(data).toMatchObject({
      company_id: String(account.companyId),
      payment_id: null,
      fee_bearer: 'client',
      mail_status: 'unsent',
      status: '0',
      due_date: '1483056000',
      deleted_at: null,
      total: '4501.50',
      amount_paid: '0.00',
      amount_due: '4501.50',
      payment_status: 'overdue', // due 12/30/2016: shown overdue (docs/api.md "Overdue")
      paid_at: null,
      currency: 'NGN',
    });
    expect(Number.isInteger(data.id)).toBe(true);
    expect(typeof data.client_id).toBe('string');
    expect(data.reference_code).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(data.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(data.items[0]).toMatchObject({
      company_id: String(account.companyId),
      client_id: data.client_id,
      name: 'Thing',
      item: 'Thing',
      description: 'A thing',
      quantity: '3',
      unit_cost: '1500.50',
      status: '0',
      due_date: '1483056000',
      deleted_at: null,
    });
    expect(typeof data.items[0].id).toBe('string');
    expect(data.client).toMatchObject({
      company_id: account.companyId,
      status: '1',
      type: 'Customer',
      website: '',
      account_name: '',
      deleted_at: null,
    });
    expect(Number.isInteger(data.client.id)).toBe(true);
    for (const absent of ['merchant_ref', 'recipient', 'recipient_id', 'tokenize', 'metadata', 'card_token_last4'])
      expect(data).not.toHaveProperty(absent);
  });

  it('gives distinct reference codes and increasing integer ids per account', async () => {
    const { key } = await newAccount();
    const a = await createInvoice(key);
    const b = await createInvoice(key);
    expect(a.reference_code).not.toBe(b.reference_code);
    expect(b.id).toBe(a.id + 1);
    expect(Number(b.items[0].id)).toBeGreaterThan(Number(a.items[0].id));
  });
});

describe('money (docs/api.md "Money")', () => {
  it('accepts amount formats and computes the exact total in kobo', async () => {
    const { key } = await newAccount();
    const data = await createInvoice(key, {
      items: [
        item({ unit_cost: 1500, quantity: '2' }),
        item({ unit_cost: ' 0.10 ', quantity: 3 }),
        item({ unit_cost: '50,000.00', quantity: '1' }),
        item({ unit_cost: '0', quantity: '1' }),
      ],
    });
    expect(data.items.map((i: any) => i.unit_cost)).toEqual(['1500.00', '0.10', '50000.00', '0.00']);
    expect(data.total).toBe('53000.30');
  });

  it('rejects bad amounts and quantities without rounding', async () => {
    const { key } = await newAccount();
    for (const [unit_cost, quantity, code] of [
      ['10.005', '1', 'invalid_amount'],
      ['-1', '1', 'invalid_amount'],
      ['1e3', '1', 'invalid_amount'],
      ['1 000', '1', 'invalid_amount'],
      ['1,00.00', '1', 'invalid_amount'],
      ['', '1', 'invalid_amount'],
      ['1000000000000.00', '1', 'invalid_amount'],
      ['10', '0', 'invalid_quantity'],
      ['10', '1.5', 'invalid_quantity'],
      ['10', '1000001', 'invalid_quantity'],
    ] as const) {
      const result = await call('add-invoice', { key, body: invoiceBody({ items: [item({ unit_cost, quantity })] }) });
      expect(result.status, `${unit_cost} × ${quantity}`).toBe(400);
      expect(result.body.errors[0]).toMatchObject({
        code,
        field: `items.0.${code === 'invalid_quantity' ? 'quantity' : 'unit_cost'}`,
      });
    }
  });

  it('rejects a zero total and a total above 999,999,999,999.99', async () => {
    const { key } = await newAccount();
    const zero = await call('add-invoice', { key, body: invoiceBody({ items: [item({ unit_cost: '0' })] }) });
    expect(zero.status).toBe(400);
    expect(zero.body.errors[0]).toMatchObject({ code: 'invalid_amount', field: 'items' });
    const huge = await call('add-invoice', {
      key,
      body: invoiceBody({ items: [item({ unit_cost: '999,999,999,999.99', quantity: '2' })] }),
    });
    expect(huge.status).toBe(400);
    const atMax = item({ unit_cost: '999,999,999,999.99', quantity: '1' });
    const twoAtMax = await call('add-invoice', { key, body: invoiceBody({ items: [atMax, atMax] }) });
    expect(twoAtMax.status).toBe(400);
    expect(twoAtMax.body).toMatchObject({
      code: 'validation_failed',
      message: 'items: the invoice total must not exceed 999999999999.99',
      errors: [
        { code: 'invalid_amount', field: 'items', message: 'the invoice total must not exceed 999999999999.99' },
      ],
    });
    const max = await call('add-invoice', {
      key,
      body: invoiceBody({ items: [item({ unit_cost: '999,999,999,999.99', quantity: '1' })] }),
    });
    expect(max.status).toBe(201);
    expect(max.body.data.total).toBe('999999999999.99');
  });
});

describe('due date (docs/api.md "Dates and time")', () => {
  it('accepts MM/DD/YYYY with optional leading zeros and any valid date', async () => {
    const { key } = await newAccount();
    expect((await createInvoice(key, { due_date: '1/5/2025' })).due_date).toBe(String(Date.UTC(2025, 0, 5) / 1000));
    expect((await createInvoice(key, { due_date: '02/29/2024' })).due_date).toBe(String(Date.UTC(2024, 1, 29) / 1000));
    expect((await createInvoice(key, { due_date: '01/01/1970' })).due_date).toBe('0');
  });

  it('rejects impossible dates and other formats with invalid_date naming the format', async () => {
    const { key } = await newAccount();
    for (const due_date of ['02/30/2025', '13/01/2025', '2025-01-05', '02/29/2023', '01/01/1969', 5, '']) {
      const result = await call('add-invoice', { key, body: invoiceBody({ due_date }) });
      expect(result.status, String(due_date)).toBe(400);
      expect(result.body.errors[0]).toMatchObject({
        field: 'due_date',
        code: due_date === '' ? expect.any(String) : 'invalid_date',
      });
      expect(result.body.errors[0].message).toContain('MM/DD/YYYY');
    }
  });
});

describe('client or client_id (docs/api.md "Add invoice")', () => {
  it('requires exactly one of client and client_id', async () => {
    const { key } = await newAccount();
    const existing = await createInvoice(key);
    const both = await call('add-invoice', { key, body: invoiceBody({ client_id: existing.client_id }) });
    expect(both.status).toBe(400);
    const { client: _client, ...withoutClient } = invoiceBody();
    const neither = await call('add-invoice', { key, body: withoutClient });
    expect(neither.status).toBe(400);
    expect(neither.body.errors[0]).toMatchObject({ code: 'required', field: 'client' });
  });

  it('accepts client_id as a string or a number and returns that client', async () => {
    const { key } = await newAccount();
    const first = await createInvoice(key);
    const { client: _c, ...base } = invoiceBody();
    for (const client_id of [first.client_id, Number(first.client_id), ` ${first.client_id}`]) {
      const result = await call('add-invoice', { key, body: { ...base, client_id } });
      expect(result.status).toBe(201);
      expect(result.body.data.client_id).toBe(first.client_id);
      expect(result.body.data.client.email).toBe(first.client.email);
    }
  });

  it('answers 404 client_not_found for unknown and foreign clients alike, 400 for non-integers', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const foreign = await createInvoice(owner.key);
    await createInvoice(other.key); // the other account has a client with the same id number
    const { client: _c, ...base } = invoiceBody();
    const unknown = await call('add-invoice', { key: other.key, body: { ...base, client_id: '999999' } });
    const foreignResult = await call('add-invoice', {
      key: other.key,
      body: { ...base, client_id: Number(foreign.client_id) + 1 },
    });
    for (const result of [unknown, foreignResult]) {
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ code: 'client_not_found', message: 'Client not found' });
    }
    for (const client_id of ['abc', '0', -1, 1.5, '1e3']) {
      expect(
        (await call('add-invoice', { key: other.key, body: { ...base, client_id } })).status,
        String(client_id),
      ).toBe(400);
    }
  });

  it('an invoice for a client named by id, or a new one, costs two round trips: no credit read after', async () => {
    const { key } = await newAccount();
    const first = await createInvoice(key);
    const body = { ...invoiceBody(), client: undefined, client_id: String(first.client.id) };
    const newClient = invoiceBody();
    for (const each of [body, newClient]) {
      const commands: string[] = [];
      const remove = dynamoHooks.add({ before: (c) => void commands.push(c.command) });
      try {
        const created = await call('add-invoice', { key, body: each });
        expect(created.status, created.rawBody).toBe(201);
      } finally {
        remove();
      }
      expect(commands).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    }
  });

  it('reuses an existing client by email, case-insensitively and unchanged', async () => {
    const { key } = await newAccount();
    const email = uniqueEmail();
    const first = await createInvoice(key, {
      client: { first_name: 'Ada', last_name: 'Obi', email, phone: '+2348012345678', company_name: 'Obi Ltd' },
    });
    const second = await createInvoice(key, {
      client: {
        first_name: 'Other',
        last_name: 'Name',
        email: email.toUpperCase(),
        phone: '08011111111',
        company_name: 'Changed',
      },
    });
    expect(second.client_id).toBe(first.client_id);
    expect(second.client).toEqual(first.client);
    expect(second.client.name).toBe('Obi Ltd');
  });

  it('fills client defaults: type Customer, company_name as name, unset text fields as ""', async () => {
    const { key } = await newAccount();
    const data = await createInvoice(key, {
      client: {
        first_name: 'A',
        last_name: 'B',
        email: uniqueEmail(),
        phone: '+2348012345678',
        type: 'vendor',
        settlement_bank: '057',
        account_number: '0123456789',
        address: '1 Marina, Lagos',
      },
    });
    expect(data.client).toMatchObject({
      type: 'Vendor',
      name: '',
      settlement_bank: '057',
      account_number: '0123456789',
      address: '1 Marina, Lagos',
      account_name: '',
      website: '',
    });
  });

  it('validates client email, phone and type', async () => {
    const { key } = await newAccount();
    const base = { first_name: 'A', last_name: 'B', email: uniqueEmail(), phone: '+2348012345678' };
    for (const [client, code, field] of [
      [{ ...base, email: 'not-an-email' }, 'invalid_email', 'client.email'],
      // A control character (NUL, BS, ESC, DEL, NEL, APC): mail software drops or rewrites it, so the address would
      // reach another mailbox.
      ...['\u0000', '\b', '\u001b', '\u007f', '\u0085', '\u009f'].map(
        (control) => [{ ...base, email: `ct${control}rl@example.com` }, 'invalid_email', 'client.email'] as const,
      ),
      [{ ...base, phone: '123' }, 'invalid_phone', 'client.phone'],
      [{ ...base, phone: '+234 801 234' }, 'invalid_phone', 'client.phone'],
      [{ ...base, type: 'Partner' }, 'invalid_enum', 'client.type'],
      [{ ...base, first_name: '  ' }, 'required', 'client.first_name'],
      [{ ...base, last_name: undefined }, 'required', 'client.last_name'],
    ] as const) {
      const result = await call('add-invoice', { key, body: invoiceBody({ client }) });
      expect(result.status, field).toBe(400);
      expect(result.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ code, field })]));
    }
  });
});

describe('items, enums and optional fields (docs/api.md "Add invoice")', () => {
  it('requires 1 to 100 items, each with item, description, unit_cost and quantity', async () => {
    const { key } = await newAccount();
    expect((await call('add-invoice', { key, body: invoiceBody({ items: [] }) })).status).toBe(400);
    expect(
      (await call('add-invoice', { key, body: invoiceBody({ items: Array.from({ length: 101 }, () => item()) }) }))
        .status,
    ).toBe(400);
    const hundred = await call('add-invoice', {
      key,
      body: invoiceBody({ items: Array.from({ length: 100 }, () => item()) }),
    });
    expect(hundred.status).toBe(201);
    expect(hundred.body.data.items).toHaveLength(100);
    const missing = await call('add-invoice', { key, body: invoiceBody({ items: [{ item: 'x' }] }) });
    expect(missing.body.errors.map((e: any) => e.field).sort()).toEqual([
      'items.0.description',
      'items.0.quantity',
      'items.0.unit_cost',
    ]);
  });

  it('checks fee_bearer and recipient values; recipient_id is required for wallet and ignored for account', async () => {
    const { key } = await newAccount();
    expect(
      (await call('add-invoice', { key, body: invoiceBody({ fee_bearer: 'merchant' }) })).body.errors[0],
    ).toMatchObject({ code: 'invalid_enum', field: 'fee_bearer' });
    expect((await call('add-invoice', { key, body: invoiceBody({ recipient: 'bank' }) })).status).toBe(400);
    const noWallet = await call('add-invoice', { key, body: invoiceBody({ recipient: 'wallet' }) });
    expect(noWallet.body.errors[0]).toMatchObject({ code: 'required', field: 'recipient_id' });
    const wallet = await createInvoice(key, { recipient: 'wallet', recipient_id: 'PMojL342gd' });
    expect(wallet).toMatchObject({ recipient: 'wallet', recipient_id: 'PMojL342gd' });
    const account = await createInvoice(key, { recipient: 'account', recipient_id: 'ignored' });
    expect(account.recipient).toBe('account');
    expect(account).not.toHaveProperty('recipient_id');
  });

  it('answers 403 for tokenize on an account without tokenization, and echoes tokenize as a string', async () => {
    const plain = await newAccount();
    for (const tokenize of ['true', true]) {
      const result = await call('add-invoice', { key: plain.key, body: invoiceBody({ tokenize }) });
      expect(result.status).toBe(403);
      expect(result.body.code).toBe('tokenization_not_enabled');
    }
    expect((await createInvoice(plain.key, { tokenize: 'false' })).tokenize).toBe('false');
    expect((await call('add-invoice', { key: plain.key, body: invoiceBody({ tokenize: 'yes' }) })).status).toBe(400);
    const enabled = await newAccount({ tokenizationEnabled: true });
    expect((await createInvoice(enabled.key, { tokenize: true })).tokenize).toBe('true');
  });

  it('stores card_token but returns only its last 4 characters', async () => {
    const { key } = await newAccount();
    const data = await createInvoice(key, { card_token: 'tok_4242424242424242_9876' });
    expect(data.card_token_last4).toBe('9876');
    expect(JSON.stringify(data)).not.toContain('tok_4242');
    const stored = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.invoiceBody(data.reference_code) }),
    );
    expect(stored.Item?.card_token).toBe('tok_4242424242424242_9876');
  });

  it('keeps merchant_ref unique per account (case-sensitive) and at most 64 characters', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    expect((await createInvoice(key, { merchant_ref: 'INV-001' })).merchant_ref).toBe('INV-001');
    const duplicate = await call('add-invoice', { key, body: invoiceBody({ merchant_ref: 'INV-001' }) });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('duplicate_merchant_ref');
    expect((await call('add-invoice', { key, body: invoiceBody({ merchant_ref: 'inv-001' }) })).status).toBe(201);
    expect((await call('add-invoice', { key: other.key, body: invoiceBody({ merchant_ref: 'INV-001' }) })).status).toBe(
      201,
    );
    expect((await call('add-invoice', { key, body: invoiceBody({ merchant_ref: 'x'.repeat(65) }) })).status).toBe(400);
  });

  it('accepts metadata as an object or a JSON string and returns an object; enforces its limits', async () => {
    const { key } = await newAccount();
    expect((await createInvoice(key, { metadata: { order: 'A1', count: 2, paid: false } })).metadata).toEqual({
      order: 'A1',
      count: 2,
      paid: false,
    });
    expect((await createInvoice(key, { metadata: '{"order":"A2"}' })).metadata).toEqual({ order: 'A2' });
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    for (const metadata of [
      tooMany,
      { ['k'.repeat(41)]: 1 },
      { k: 'v'.repeat(501) },
      { k: { nested: true } },
      '[1]',
      'not json',
      5,
    ]) {
      const result = await call('add-invoice', { key, body: invoiceBody({ metadata }) });
      expect(result.status, JSON.stringify(metadata).slice(0, 40)).toBe(400);
      expect(result.body.errors[0].field).toBe('metadata');
    }
  });

  it('rejects text over 500 characters', async () => {
    const { key } = await newAccount();
    const result = await call('add-invoice', {
      key,
      body: invoiceBody({ items: [item({ description: 'd'.repeat(501) })] }),
    });
    expect(result.body.errors[0]).toMatchObject({ code: 'too_long', field: 'items.0.description' });
  });
});
