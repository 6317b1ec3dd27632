/**
 * Request shapes real clients send (docs/api.md): a form body means exactly its JSON twin or is refused,
 * bodies must be valid UTF-8, node-payant's flat client, and pypayant's `GET /payments/history/` with a JSON body.
 */
import { describe, expect, it } from 'vitest';
import { handler as historyHandler } from '../../functions/history/handler.ts';
import { toApiGatewayEvent } from '../../infra/local/event.ts';
import { accountState, expectErrorEnvelope, NOTHING } from '../robustness/helpers.ts';
import {
  call,
  createInvoice,
  invoiceBody,
  lambdaContext,
  makeEvent,
  newAccount,
  todayMonthFirst,
  uniqueEmail,
} from '../support/api.ts';

const FORM = 'application/x-www-form-urlencoded';
const formInvoice = (extra: string) =>
  `client[first_name]=Ada&client[last_name]=Obi&client[email]=${encodeURIComponent(uniqueEmail())}&client[phone]=%2B2348012345678` +
  `&due_date=12/30/2030&fee_bearer=client&items[0][item]=Small&items[0][description]=One&items[0][unit_cost]=5.00&items[0][quantity]=1${extra}`;

describe('form bodies are read faithfully or refused', () => {
  it('more than 2,000 parameters → 400 (not an invoice without its later item and merchant_ref)', async () => {
    const { key, account } = await newAccount();
    const padding = Array.from({ length: 2_000 }, (_, i) => `&p${i}=1`).join('');
    const body = formInvoice(
      `${padding}&items[1][item]=Big&items[1][description]=Two&items[1][unit_cost]=1000.00&items[1][quantity]=1&merchant_ref=M-9`,
    );
    const result = await call('add-invoice', { key, body, contentType: FORM });
    expectErrorEnvelope(result, 400);
    expect(result.body.code).toBe('validation_failed');
    expect(await accountState(account.companyId)).toEqual(NOTHING);
    // The same invoice within the limits is the full one.
    const ok = await call('add-invoice', {
      key,
      body: formInvoice(
        '&items[1][item]=Big&items[1][description]=Two&items[1][unit_cost]=1000.00&items[1][quantity]=1&merchant_ref=M-9',
      ),
      contentType: FORM,
    });
    expect(ok.status, ok.rawBody).toBe(201);
    expect(ok.body.data.total).toBe('1005.00');
    expect(ok.body.data.merchant_ref).toBe('M-9');
  });

  it('nesting deeper than the parser reads → 400, never a reshaped key', async () => {
    const { key } = await newAccount();
    const result = await call('add-invoice', {
      key,
      body: formInvoice('&metadata[a][b][c][d][e][f]=1'),
      contentType: FORM,
    });
    expectErrorEnvelope(result, 400);
    expect(result.body.code).toBe('validation_failed');
  });

  it('more array elements than the parser reads → 400', async () => {
    const { key } = await newAccount();
    const result = await call('add-invoice', {
      key,
      body: formInvoice(Array.from({ length: 150 }, () => '&tags[]=x').join('')),
      contentType: FORM,
    });
    expectErrorEnvelope(result, 400);
  });
});

describe('bodies must be valid UTF-8', () => {
  const withBadBytes = (json: string) =>
    Buffer.concat([
      Buffer.from(json.slice(0, json.indexOf('@@'))),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(json.slice(json.indexOf('@@') + 2)),
    ]);

  it('JSON with bytes FF FE C3 in an item name → 400 invalid_json, nothing stored (also through the local runtime event)', async () => {
    const { key, account } = await newAccount();
    const json = JSON.stringify(
      invoiceBody({ items: [{ item: 'A@@', description: 'x', unit_cost: '1', quantity: '1' }] }),
    );
    const bytes = withBadBytes(json);
    const raw = await (await import('../../functions/invoices/handler.ts')).handler(
      { ...makeEvent('add-invoice', { key, body: '' }), body: bytes.toString('base64'), isBase64Encoded: true },
      lambdaContext(),
    );
    expect(raw.statusCode, raw.body).toBe(400);
    expect(JSON.parse(raw.body).code).toBe('invalid_json');
    // The local runtime keeps the bytes (base64) instead of turning them into U+FFFD.
    const event = toApiGatewayEvent({
      method: 'POST',
      url: '/invoices',
      headers: { 'content-type': 'application/json' },
      body: bytes,
    });
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64').equals(bytes)).toBe(true);
    expect(await accountState(account.companyId)).toEqual(NOTHING);
  });

  it('form with invalid UTF-8 (raw or percent-encoded) → 400 validation_failed', async () => {
    const { key, account } = await newAccount();
    const percent = await call('add-invoice', {
      key,
      body: formInvoice('&merchant_ref=A%FF%FE%C3'),
      contentType: FORM,
    });
    expectErrorEnvelope(percent, 400);
    expect(percent.body.code).toBe('validation_failed');
    const raw = await (await import('../../functions/invoices/handler.ts')).handler(
      {
        ...makeEvent('add-invoice', { key, body: '', contentType: FORM }),
        body: withBadBytes(formInvoice('&merchant_ref=A@@')).toString('base64'),
        isBase64Encoded: true,
      },
      lambdaContext(),
    );
    expect(raw.statusCode).toBe(400);
    expect(JSON.parse(raw.body).code).toBe('validation_failed');
    expect(await accountState(account.companyId)).toEqual(NOTHING);
  });
});

describe('real SDK shapes', () => {
  it('node-payant: a flat client (top-level first_name/last_name/email/phone) is the client', async () => {
    const { key } = await newAccount();
    const email = uniqueEmail();
    const { client: _nested, ...rest } = invoiceBody();
    const flat = {
      ...rest,
      first_name: 'Ada',
      last_name: 'Obi',
      email,
      phone: '+2348012345678',
      company_name: 'Obi Ventures',
    };
    const created = await call('add-invoice', { key, body: flat });
    expect(created.status, created.rawBody).toBe(201);
    expect(created.body.data.client).toMatchObject({
      first_name: 'Ada',
      last_name: 'Obi',
      email,
      name: 'Obi Ventures',
    });
    // Same email nested: the same client, reused.
    const again = await call('add-invoice', {
      key,
      body: invoiceBody({ client: { first_name: 'X', last_name: 'Y', email, phone: '+2348000000000' } }),
    });
    expect(again.body.data.client_id).toBe(created.body.data.client_id);
    // Incomplete flat client → 400 naming the missing field; client_id still wins over flat fields.
    const incomplete = await call('add-invoice', { key, body: { ...rest, first_name: 'Ada', email: uniqueEmail() } });
    expectErrorEnvelope(incomplete, 400);
    expect(incomplete.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['client.last_name', 'client.phone']),
    );
    const byId = await call('add-invoice', {
      key,
      body: { ...rest, client_id: created.body.data.client_id, first_name: 'Ignored' },
    });
    expect(byId.status, byId.rawBody).toBe(201);
    expect(byId.body.data.client.first_name).toBe('Ada');
  });

  it('pypayant: GET /payments/history/ with a JSON body answers like POST /payments/history', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    await call('add-payment', {
      key,
      body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '100', channel: 'Cash' },
    });
    const post = await call('payment-history', { key, body: { period: 'today' } });
    const base = makeEvent('payment-history', { key, body: { period: 'today' } });
    const get = await historyHandler(
      {
        ...base,
        routeKey: 'GET /payments/history/',
        rawPath: '/payments/history/',
        requestContext: {
          ...base.requestContext,
          routeKey: 'GET /payments/history/',
          http: { ...base.requestContext.http, method: 'GET', path: '/payments/history/' },
        },
      },
      lambdaContext(),
    );
    expect(get.statusCode).toBe(200);
    expect(JSON.parse(get.body).data.payments).toEqual(post.body.data.payments);
  });

  it('deployed trailing-slash twin (a greedy route on API Gateway): an empty child is the route, any other child is 404', async () => {
    const { key } = await newAccount();
    const { handler } = await import('../../functions/invoices/handler.ts');
    const twin = (proxy: string) => {
      const event = makeEvent('add-invoice', { key, body: invoiceBody() });
      return {
        ...event,
        routeKey: 'POST /invoices/{proxy+}',
        rawPath: `/invoices/${proxy}`,
        pathParameters: { proxy },
        requestContext: {
          ...event.requestContext,
          routeKey: 'POST /invoices/{proxy+}',
          http: { ...event.requestContext.http, path: `/invoices/${proxy}` },
        },
      };
    };
    const empty = await handler(twin(''), lambdaContext());
    expect(empty.statusCode, empty.body).toBe(201);
    const child = await handler(twin('abc'), lambdaContext());
    expect(child.statusCode).toBe(404);
    expect(JSON.parse(child.body).code).toBe('route_not_found');
  });
});
