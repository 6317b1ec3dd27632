/** docs/api.md "Envelopes", "Errors" and "Request bodies": envelopes, status codes, body formats, evaluation order. */
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../shared/http/errors.ts';
import { call, createInvoice, invoiceBody, newAccount, todayMonthFirst } from '../support/api.ts';

const expectErrorEnvelope = (
  result: { status: number; body: any; headers: Record<string, string> },
  status: number,
  code: string,
) => {
  expect(result.status).toBe(status);
  expect(result.headers['content-type']).toMatch(/^application\/json/);
  expect(result.body).toMatchObject({ status: 'error', code });
  expect(typeof result.body.message).toBe('string');
  expect(result.body.message).not.toContain('\n');
  expect(Array.isArray(result.body.errors)).toBe(true);
  expect(typeof result.body.request_id).toBe('string');
  expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(status);
};

describe('success envelopes', () => {
  it('answers 201 with the fixed messages for invoices and payments, 200 for history', async () => {
    const { key } = await newAccount();
    const invoice = await call('add-invoice', { key, body: invoiceBody() });
    expect(invoice.status).toBe(201);
    expect(invoice.body).toMatchObject({ status: 'success', message: 'Invoice created successfully.' });
    const payment = await call('add-payment', {
      key,
      body: {
        reference_code: invoice.body.data.reference_code,
        date: todayMonthFirst(),
        amount: '100',
        channel: 'POS',
      },
    });
    expect(payment.status).toBe(201);
    expect(payment.body).toMatchObject({ status: 'success', message: 'Payment successful.' });
    const history = await call('payment-history', { key, body: { period: 'today' } });
    expect(history.status).toBe(200);
    expect(history.body.status).toBe('success');
    expect(history.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('error envelope', () => {
  it('lists per-field problems with dotted paths and stable codes', async () => {
    const { key } = await newAccount();
    const result = await call('add-invoice', {
      key,
      body: invoiceBody({
        due_date: '02/30/2025',
        items: [
          { item: 'A', description: 'B', unit_cost: '1', quantity: '1' },
          { item: 'A', description: 'B', unit_cost: '10.005', quantity: '1' },
        ],
      }),
    });
    expectErrorEnvelope(result, 400, 'validation_failed');
    expect(result.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'invalid_date',
          field: 'due_date',
          message: expect.stringContaining('MM/DD/YYYY'),
        }),
        expect.objectContaining({ code: 'invalid_amount', field: 'items.1.unit_cost' }),
      ]),
    );
  });

  it('reports missing fields as required and bad enums as invalid_enum', async () => {
    const { key } = await newAccount();
    const result = await call('add-payment', { key, body: { reference_code: 'x', amount: '5', channel: 'Card' } });
    expectErrorEnvelope(result, 400, 'validation_failed');
    expect(result.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'required', field: 'date' }),
        expect.objectContaining({ code: 'invalid_enum', field: 'channel' }),
      ]),
    );
  });

  it('answers malformed JSON with 400 invalid_json, and an empty body too', async () => {
    const { key } = await newAccount();
    expectErrorEnvelope(await call('add-invoice', { key, body: '{"due_date": ' }), 400, 'invalid_json');
    expectErrorEnvelope(await call('add-payment', { key }), 400, 'invalid_json');
  });

  it('answers a JSON body that is not an object with validation_failed', async () => {
    const { key } = await newAccount();
    const result = await call('add-payment', { key, body: '[1,2]' });
    expectErrorEnvelope(result, 400, 'validation_failed');
    expect(result.body.errors[0]).toMatchObject({ field: null });
  });
});

describe('content types', () => {
  it('parses bodies with no content type, text/plain, +json and a charset as JSON', async () => {
    const { key } = await newAccount();
    for (const contentType of [
      null,
      'text/plain',
      'application/vnd.api+json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
    ]) {
      const result = await call('payment-history', { key, contentType, body: { period: 'today' } });
      expect(result.status, String(contentType)).toBe(200);
    }
  });

  it('accepts form-urlencoded bodies in PHP bracket notation as the same object', async () => {
    const { key } = await newAccount();
    const form = new URLSearchParams({
      'client[first_name]': 'Ada',
      'client[last_name]': 'Obi',
      'client[email]': 'form-client@example.com',
      'client[phone]': '+2348012345678',
      due_date: '12/30/2030',
      fee_bearer: 'account',
      'items[0][item]': 'Logo',
      'items[0][description]': 'Vector logo',
      'items[0][unit_cost]': '1,500.50',
      'items[0][quantity]': '2',
      'items[1][item]': 'Card',
      'items[1][description]': 'Business card',
      'items[1][unit_cost]': '100',
      'items[1][quantity]': '1',
    }).toString();
    const result = await call('add-invoice', { key, contentType: 'application/x-www-form-urlencoded', body: form });
    expect(result.status).toBe(201);
    expect(result.body.data.client.email).toBe('form-client@example.com');
    expect(result.body.data.items.map((i: any) => [i.name, i.unit_cost, i.quantity])).toEqual([
      ['Logo', '1500.50', '2'],
      ['Card', '100.00', '1'],
    ]);
    expect(result.body.data.total).toBe('3101.00');
  });

  it('answers other content types with 415', async () => {
    const { key } = await newAccount();
    for (const contentType of ['application/xml', 'multipart/form-data; boundary=x', 'text/html']) {
      expectErrorEnvelope(
        await call('payment-history', { key, contentType, body: '{"period":"today"}' }),
        415,
        'unsupported_media_type',
      );
    }
  });

  it('handles sam-style events: Title-Case headers and a base64 body without content type', async () => {
    const { key } = await newAccount();
    const result = await call('add-invoice', {
      key,
      body: invoiceBody(),
      base64: true,
      contentType: null,
      titleCaseHeaders: true,
    });
    expect(result.status).toBe(201);
    const history = await call('payment-history', {
      key,
      body: { period: 'week' },
      base64: true,
      titleCaseHeaders: true,
    });
    expect(history.status).toBe(200);
  });
});

describe('evaluation order', () => {
  it('authenticates before looking at the body', async () => {
    for (const body of ['{not json', { period: 'nope' }, 'x'.repeat(70 * 1024)]) {
      const result = await call('payment-history', { key: undefined, body, contentType: 'application/xml' });
      expectErrorEnvelope(result, 401, 'invalid_api_key');
    }
  });

  it('answers 413 for bodies over 64 KiB, also when base64-encoded', async () => {
    const { key } = await newAccount();
    const big = JSON.stringify({ period: 'today', padding: 'x'.repeat(64 * 1024) });
    expectErrorEnvelope(await call('payment-history', { key, body: big }), 413, 'payload_too_large');
    expectErrorEnvelope(await call('payment-history', { key, body: big, base64: true }), 413, 'payload_too_large');
    const justUnder = JSON.stringify({ period: 'today', padding: 'x'.repeat(64 * 1024 - 40) });
    expect((await call('payment-history', { key, body: justUnder })).status).toBe(200);
  });
});

describe('unknown and server-owned fields', () => {
  it('ignores unknown fields and never echoes them; server-owned fields cannot be set', async () => {
    const { key, account } = await newAccount();
    const invoice = await call('add-invoice', {
      key,
      body: invoiceBody({
        id: 999,
        status: '1',
        amount_paid: '100.00',
        company_id: 12345,
        mail_status: 'sent',
        hacker: 'x',
        reference_code: 'AAAAAAAAAAAAAAAAAAAA',
      }),
    });
    expect(invoice.status).toBe(201);
    const data = invoice.body.data;
    expect(data.id).not.toBe(999);
    expect(data.status).toBe('0');
    expect(data.mail_status).toBe('unsent');
    expect(data.amount_paid).toBe('0.00');
    expect(data.company_id).toBe(String(account.companyId));
    expect(data.reference_code).not.toBe('AAAAAAAAAAAAAAAAAAAA');
    expect(invoice.rawBody).not.toContain('hacker');

    const payment = await call('add-payment', {
      key,
      body: {
        reference_code: data.reference_code,
        date: todayMonthFirst(),
        amount: '1',
        channel: 'Cash',
        status: 'failed',
        id: 77,
        currency: 'USD',
      },
    });
    expect(payment.status).toBe(201);
    expect(payment.body.data).toMatchObject({ status: 'success', currency: 'NGN' });
    expect(payment.body.data.id).not.toBe(77);
  });

  it('returns errors as JSON on every route, never an empty body', async () => {
    const { key } = await newAccount();
    await createInvoice(key);
    for (const route of ['add-invoice', 'add-payment', 'payment-history'] as const) {
      const result = await call(route, { key, body: {} });
      expect(result.status).toBe(400);
      expect(result.rawBody.length).toBeGreaterThan(0);
      expect(result.body.status).toBe('error');
    }
  });
});

describe('curl -d without a content type', () => {
  it('parses a JSON object sent as application/x-www-form-urlencoded as JSON', async () => {
    const { key } = await newAccount();
    const result = await call('payment-history', {
      key,
      contentType: 'application/x-www-form-urlencoded',
      body: '{"period":"today"}',
    });
    expect(result.status).toBe(200);
    expect(result.body.data.period).toBe('today');
  });
});

describe('text that is not valid Unicode', () => {
  it('rejects unpaired surrogates in stored fields with a field error, and ignores them in unknown fields', async () => {
    const { key } = await newAccount();
    const bad = await call('add-invoice', {
      key,
      body: '{"client":{"first_name":"Ada\\ud800","last_name":"Obi","email":"u@example.com","phone":"+2348012345678"},"due_date":"12/30/2030","fee_bearer":"client","items":[{"item":"A","description":"B","unit_cost":"1","quantity":"1"}]}',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ code: 'invalid_value', field: 'client.first_name' });
    const badMetadataKey = await call('add-invoice', {
      key,
      body: JSON.stringify(invoiceBody()).replace('"due_date"', '"metadata":{"k\\udc00":"v"},"due_date"'),
    });
    expect(badMetadataKey.status).toBe(400);
    expect(badMetadataKey.body.errors[0].field).toBe('metadata');
    const ignored = await call('payment-history', { key, body: '{"period":"today","note":"\\ud800"}' });
    expect(ignored.status).toBe(200);
    const emoji = await call('add-invoice', {
      key,
      body: invoiceBody({ items: [{ item: 'Cake 🎂', description: 'Ẹ̀kọ', unit_cost: '1', quantity: '1' }] }),
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.data.items[0].name).toBe('Cake 🎂');
  });
});
