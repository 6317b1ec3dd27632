/**
 * Property-based fuzzing (fast-check) of the three request bodies and their headers: wrong types,
 * missing and extra fields, huge strings and arrays, unicode, prototype-pollution keys, numbers as
 * strings and vice versa, invalid dates and amounts, random content types, base64 and header casing.
 * Never a 5xx; every non-2xx is the error envelope (docs/api.md "Envelopes") with a documented code; rejected requests write
 * nothing (the account's invoices, clients, payments, history index and idempotency records are checked at the end);
 * Object.prototype is never polluted. Path parameters are fuzzed by fuzz-path-parameters.test.ts.
 */
import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import type { RouteName } from '../../shared/routes.ts';
import {
  type CallResult,
  call,
  createInvoice,
  invoiceBody,
  newAccount,
  todayMonthFirst,
  uniqueEmail,
} from '../support/api.ts';
import { accountState, expectErrorEnvelope, idempotencyRecordExists, STRESS, scale } from './helpers.ts';

const RUNS = scale(150, 2000);
const TIMEOUT = STRESS ? 900_000 : 60_000;

// ---- Generators -----------------------------------------------------------------------------------

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const SERVER_OWNED = [
  'id',
  'status',
  'amount_paid',
  'amount_due',
  'company_id',
  'payment_status',
  'reference_code',
  'created_at',
];

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\t\n',
  '0',
  '-1',
  '-0.01',
  '1e3',
  '1E3',
  '0x10',
  '10.005',
  '1,50.00',
  '1 500',
  '１２３', // full-width digits
  '٣٤', // Arabic-Indic digits
  '1500\u0000',
  'NaN',
  'Infinity',
  'null',
  'true',
  '999999999999.99',
  '1000000000000.00',
  '99999999999999999999999',
  '02/30/2025',
  '13/01/2025',
  '00/10/2025',
  '2025-01-01',
  '12/31/1969',
  '01/01/10000',
  '31/12/2024',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '😀'.repeat(300),
  'ẞ\u202E\uFEFF\u200B',
  '\uD800',
  'x\uDFFFy',
  'a'.repeat(501),
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  nastyStrings,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 490, maxLength: 560 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    -1,
    1e21,
    1e-7,
    5e-324,
    1.7976931348623157e308,
    0.1 + 0.2,
    Number.MAX_SAFE_INTEGER,
    2 ** 53,
    1500,
    10.005,
  ),
  fc.boolean(),
  fc.constant(null),
);

const weird: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...PROTO_KEYS)), leaf, {
      maxKeys: 4,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ ['__proto__']: { polluted: 'yes' } }) },
  { weight: 1, arbitrary: fc.constant({ constructor: { prototype: { polluted: 'yes' } } }) },
);

const extraKey = fc.oneof(
  fc.constantFrom(...PROTO_KEYS, ...SERVER_OWNED),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

/** Sets an own property (also for "__proto__", which plain assignment would turn into a prototype change). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type Mutation = { path: string[]; action: 'delete' | 'replace'; value: unknown };

/** A valid body with some fields deleted or replaced, and some unknown/extra fields added. */
function mutated(base: () => Record<string, unknown>, paths: string[][]) {
  const mutation: fc.Arbitrary<Mutation> = fc.record({
    path: fc.constantFrom(...paths),
    action: fc.constantFrom('delete' as const, 'replace' as const),
    value: weird,
  });
  return fc
    .record({
      mutations: fc.array(mutation, { maxLength: 3 }),
      extras: fc.array(fc.tuple(extraKey, weird), { maxLength: 3 }),
    })
    .map(({ mutations, extras }) => ({ mutations, extras, build: () => applyMutations(base(), mutations, extras) }));
}

/**
 * Generated values are shared: fast-check hands out one instance of each `fc.constant` object, and a later mutation
 * may write into a value an earlier one inserted. So every value goes in as a copy; writing the original in once made
 * the `__proto__` constant contain itself, and every later body cyclic.
 */
function applyMutations(body: Record<string, unknown>, mutations: Mutation[], extras: [string, unknown][]) {
  for (const { path, action, value } of mutations) {
    let target: any = body;
    for (const segment of path.slice(0, -1)) {
      if (target === null || typeof target !== 'object') break;
      target = target[segment];
    }
    if (target === null || typeof target !== 'object') continue;
    const last = path[path.length - 1]!;
    if (action === 'delete') delete target[last];
    else setOwn(target, last, structuredClone(value));
  }
  for (const [key, value] of extras) setOwn(body, key, structuredClone(value));
  return body;
}

const CONTENT_TYPES: (string | null)[] = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/vnd.api+json',
  'application/json; charset=iso-8859-1',
  'text/plain',
  '',
  null,
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'application/xml',
  'multipart/form-data; boundary=xyz',
  'text/html',
  'application/octet-stream',
  '*/*',
  'application/json, text/plain',
];

const RAW_BODIES = [
  '',
  '{',
  '[]',
  'null',
  '"text"',
  '42',
  '{"a":',
  '\u0000\u0001',
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
  '__proto__[polluted]=yes&constructor[prototype][polluted]=yes&items[0][__proto__][polluted]=yes',
  'a[][][][][][][][][][]=1',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"items":[${'{"item":"x","description":"y","unit_cost":"1","quantity":"1"},'.repeat(120)}{}]}`,
  'x'.repeat(70 * 1024),
];

interface Encoded {
  body: string;
  contentType: string | null;
  base64: boolean;
  titleCaseHeaders: boolean;
}

/** The body in one encoding or another, under a random content type. */
function encodings(
  body: fc.Arbitrary<{ build: () => unknown }>,
): fc.Arbitrary<{ encode: () => Encoded; label: string }> {
  return fc
    .record({
      source: body,
      format: fc.constantFrom('json', 'json', 'json', 'form', 'raw', 'jsonValue'),
      raw: fc.constantFrom(...RAW_BODIES),
      jsonValue: fc.jsonValue({ maxDepth: 3 }),
      contentType: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
      ),
      base64: fc.boolean(),
      titleCaseHeaders: fc.boolean(),
    })
    .map(({ source, format, raw, jsonValue, contentType, base64, titleCaseHeaders }) => ({
      label: `${format} as ${JSON.stringify(contentType)}${base64 ? ' base64' : ''}`,
      encode: () => {
        const value = source.build();
        const text =
          format === 'json'
            ? JSON.stringify(value)
            : format === 'form'
              ? qs.stringify(value)
              : format === 'raw'
                ? raw
                : JSON.stringify(jsonValue);
        return { body: text ?? '', contentType, base64, titleCaseHeaders };
      },
    }));
}

const idempotencyKeys = fc.oneof(
  fc.constant(undefined),
  fc.constant('valid'),
  fc.constantFrom('', ' ', 'k'.repeat(256), 'ключ', 'tab\tkey', 'new\nline', '\u007f'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
);

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'x-forwarded-for',
    'content-length',
    'accept',
    'x-http-method-override',
    'content-encoding',
    'transfer-encoding',
    'cookie',
    'X-Weird-Ünicode',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  { maxKeys: 3 },
);

// ---- The property ---------------------------------------------------------------------------------

const prototypeNames = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  function: Object.getOwnPropertyNames(Function.prototype).sort(),
});

interface Outcome {
  route: RouteName;
  status: number;
  idempotencyKey: string | undefined;
  replayed: boolean;
  code?: string;
  items?: number;
}

let keyCounter = 0;

/** The statuses a route answers a valid request with. */
const SUCCESS: Partial<Record<RouteName, number[]>> = {
  'payment-history': [200],
  'add-client': [200, 201],
  'update-client': [200],
  'reverse-payment': [200, 409],
};

async function fuzzRoute(
  route: RouteName,
  key: string,
  input: fc.Arbitrary<{ encode: () => Encoded; label: string }>,
  outcomes: Outcome[],
  pathParameters?: Record<string, string>,
) {
  const pristine = prototypeNames();
  await fc.assert(
    fc.asyncProperty(input, idempotencyKeys, extraHeaders, async (request, idemChoice, headers) => {
      const encoded = request.encode();
      const idempotencyKey = idemChoice === 'valid' ? `fuzz-${route}-${Date.now()}-${keyCounter++}` : idemChoice;
      const result: CallResult = await call(route, {
        key,
        body: encoded.body,
        contentType: encoded.contentType,
        base64: encoded.base64,
        titleCaseHeaders: encoded.titleCaseHeaders,
        headers,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
        ...(pathParameters ? { pathParameters } : {}),
      });
      const context = `${route} ${request.label} body=${encoded.body.slice(0, 400)} headers=${JSON.stringify(headers)} key=${idempotencyKey}: ${result.status} ${result.rawBody.slice(0, 300)}`;
      expect(result.status, context).toBeLessThan(500);
      if (result.status >= 400) {
        expectErrorEnvelope(result);
      } else {
        expect(SUCCESS[route] ?? [201], context).toContain(result.status);
        expect(result.body.status, context).toBe('success');
      }
      // No request may change the prototypes of built-in objects.
      expect(prototypeNames(), context).toEqual(pristine);
      expect(({} as Record<string, unknown>).polluted, context).toBeUndefined();
      outcomes.push({
        route,
        status: result.status,
        idempotencyKey: idemChoice === 'valid' ? idempotencyKey : undefined,
        replayed: result.headers['idempotent-replayed'] === 'true',
        ...(result.status >= 400 ? { code: result.body.code as string } : {}),
        ...(route === 'add-invoice' && result.status === 201 ? { items: result.body.data.items.length } : {}),
      });
    }),
    { numRuns: RUNS, endOnFailure: true, ...(process.env.SEED ? { seed: Number(process.env.SEED) } : {}) },
  );
}

/** Stored outcomes (docs/api.md "Idempotency") are the only responses that leave an idempotency record behind. */
const storesRecord = (status: number, code?: string) =>
  [200, 201, 403, 404].includes(status) || (status === 409 && code !== 'idempotency_request_in_progress');

async function expectRecordsOnlyForStoredOutcomes(companyId: number, outcomes: Outcome[]) {
  for (const outcome of outcomes) {
    if (!outcome.idempotencyKey) continue;
    const exists = await idempotencyRecordExists(companyId, outcome.route, outcome.idempotencyKey);
    const keyed = ['add-invoice', 'add-payment', 'add-client', 'reverse-payment'].includes(outcome.route);
    const expected = keyed && storesRecord(outcome.status, outcome.code);
    expect(exists, `${outcome.route} ${outcome.status} ${outcome.code ?? ''} key ${outcome.idempotencyKey}`).toBe(
      expected,
    );
  }
}

describe('fuzzing request bodies and headers', { timeout: TIMEOUT }, () => {
  it('POST /invoices: never 5xx, always the envelope, rejected requests write nothing', async () => {
    const { key, account } = await newAccount();
    const base = () => ({
      client: {
        first_name: 'Ada',
        last_name: 'Obi',
        email: uniqueEmail(),
        phone: '+2348012345678',
        company_name: 'Obi Ltd',
        type: 'Customer',
      },
      due_date: '12/30/2030',
      fee_bearer: 'client',
      items: [
        { item: 'Design', description: '5 pages', unit_cost: '50,000.00', quantity: '2' },
        { item: 'Hosting', description: '1 year', unit_cost: 1200, quantity: 1 },
      ],
      recipient: 'account',
      tokenize: 'false',
      metadata: { order: 'A-1', paid: false },
    });
    const paths = [
      ['client'],
      ['client_id'],
      ['due_date'],
      ['fee_bearer'],
      ['items'],
      ['tokenize'],
      ['card_token'],
      ['recipient'],
      ['recipient_id'],
      ['merchant_ref'],
      ['metadata'],
      ['client', 'email'],
      ['client', 'phone'],
      ['client', 'first_name'],
      ['client', 'type'],
      ['items', '0'],
      ['items', '0', 'unit_cost'],
      ['items', '0', 'quantity'],
      ['items', '1', 'item'],
      ['items', '1', 'description'],
      ['metadata', '__proto__'],
      ['client', '__proto__'],
    ];
    const outcomes: Outcome[] = [];
    await fuzzRoute('add-invoice', key, encodings(mutated(base, paths)), outcomes);

    const created = outcomes.filter((o) => o.status === 201 && !o.replayed);
    const state = await accountState(account.companyId);
    expect(state.invoices).toBe(created.length);
    expect(state.clients).toBeLessThanOrEqual(created.length);
    expect(state.payments).toBe(0);
    await expectRecordsOnlyForStoredOutcomes(account.companyId, outcomes);
    // The fuzzer reached both sides.
    expect(outcomes.some((o) => o.status === 400)).toBe(true);
  });

  it('POST /payments: never 5xx, always the envelope, rejected requests write nothing', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: 'Big job', description: 'x', unit_cost: '900,000,000.00', quantity: '1' }],
    });
    const before = await accountState(account.companyId);
    const base = () => ({
      reference_code: invoice.reference_code,
      date: todayMonthFirst(),
      amount: '1,500.00',
      channel: 'BankTransfer',
    });
    const paths = [['reference_code'], ['date'], ['amount'], ['channel']];
    const outcomes: Outcome[] = [];
    await fuzzRoute('add-payment', key, encodings(mutated(base, paths)), outcomes);

    const paid = outcomes.filter((o) => o.status === 201 && !o.replayed);
    const state = await accountState(account.companyId);
    expect(state.payments).toBe(paid.length);
    expect(state.indexed).toBe(paid.length);
    expect({ ...state, payments: 0, indexed: 0 }).toEqual({ ...before, payments: 0, indexed: 0 });
    await expectRecordsOnlyForStoredOutcomes(account.companyId, outcomes);
    expect(outcomes.some((o) => o.status === 400)).toBe(true);
  });

  it('POST /clients and PUT /clients/{id}: never 5xx, always the envelope; the client keeps a valid state', async () => {
    const { key, account } = await newAccount();
    const base = () => ({
      first_name: 'Ada',
      last_name: 'Obi',
      email: `fuzz${keyCounter++}@example.com`,
      phone: '+2348012345678',
      company_name: 'Obi Ventures',
      type: 'Vendor',
    });
    const paths = [['first_name'], ['last_name'], ['email'], ['phone'], ['company_name'], ['type']];
    const outcomes: Outcome[] = [];
    await fuzzRoute('add-client', key, encodings(mutated(base, paths)), outcomes);
    await expectRecordsOnlyForStoredOutcomes(account.companyId, outcomes);
    expect(outcomes.some((o) => o.status === 400)).toBe(true);
    const client = (await call('add-client', { key, body: base() })).body.data;
    const id = String(client.id);
    await fuzzRoute('update-client', key, encodings(mutated(base, paths)), [], { id });
    const after = await call('get-client', { key, pathParameters: { id } });
    expect(after.status).toBe(200);
    expect(after.body.data.email).toMatch(/@/);
  });

  it('POST /payments/{id}/reversal: never 5xx, always the envelope; the invoice stays Σ non-reversed payments', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const pay = async () =>
      (
        await call('add-payment', {
          key,
          body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10', channel: 'Cash' },
        })
      ).body.data.id as number;
    const ids = [await pay(), await pay()];
    const outcomes: Outcome[] = [];
    const base = () => ({ reason: 'Keyed on the wrong invoice' });
    await fuzzRoute('reverse-payment', key, encodings(mutated(base, [['reason']])), outcomes, { id: String(ids[0]) });
    await expectRecordsOnlyForStoredOutcomes(account.companyId, outcomes);
    expect(outcomes.some((o) => o.status === 400)).toBe(true);
    const reversed = outcomes.filter((o) => o.status === 200 && !o.replayed);
    expect(reversed.length).toBeLessThanOrEqual(1);
    const read = await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(read.body.data.amount_paid).toBe(reversed.length === 1 ? '10.00' : '20.00');
  });

  it('POST /payments/history: never 5xx, always the envelope, nothing written, tampered cursors refused', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    for (let i = 0; i < 3; i++) {
      await call('add-payment', {
        key,
        body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10', channel: 'Cash' },
      });
    }
    const first = await call('payment-history', { key, body: { period: 'month', limit: 1 } });
    const cursor = first.body.data.next_cursor as string;
    expect(cursor).toBeTypeOf('string');
    const before = await accountState(account.companyId);

    const tamperedCursor = fc.oneof(
      fc.constant(cursor),
      fc
        .tuple(fc.nat(cursor.length - 1), fc.constantFrom('A', 'b', '0', '.', '-', '_', '='))
        .map(([i, c]) => cursor.slice(0, i) + c + cursor.slice(i + 1)),
      fc.nat(cursor.length).map((i) => cursor.slice(0, i)),
      fc.constant(`${cursor}.x`),
      fc.constant(cursor.split('.').reverse().join('.')),
    );
    const base = () => ({ period: 'custom', start: '01/01/2025', end: '31/01/2025', limit: '50' });
    const paths = [['period'], ['start'], ['end'], ['limit'], ['cursor']];
    const withCursor = fc.tuple(mutated(base, paths), fc.option(tamperedCursor, { freq: 3 })).map(([m, c]) => ({
      build: () => {
        const body = m.build() as Record<string, unknown>;
        if (c !== null) setOwn(body, 'cursor', c);
        return body;
      },
    }));
    const outcomes: Outcome[] = [];
    await fuzzRoute('payment-history', key, encodings(withCursor), outcomes);
    expect(await accountState(account.companyId)).toEqual(before);
    await expectRecordsOnlyForStoredOutcomes(account.companyId, outcomes);
    expect(outcomes.some((o) => o.status === 400)).toBe(true);
    expect(outcomes.some((o) => o.status === 200)).toBe(true);
  });
});

describe('the fuzz generator', () => {
  it('never writes a shared generated value into itself (seed -380136533 once made every later body cyclic)', () => {
    const shared = { ['__proto__']: { polluted: 'yes' } };
    const twice: Mutation[] = [
      { path: ['metadata'], action: 'replace', value: shared },
      { path: ['metadata', '__proto__'], action: 'replace', value: shared },
    ];
    const body = applyMutations({ metadata: {} }, twice, [['__proto__', shared]]);
    expect(() => JSON.stringify(body)).not.toThrow();
    expect(() => qs.stringify(body)).not.toThrow();
    expect(Object.getOwnPropertyDescriptor(shared, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect(Object.keys(body)).toEqual(['metadata', '__proto__']);
  });
});

describe('regressions found by the fuzzer', () => {
  // Each of these used to answer 500: DynamoDB's marshalling rejected or dropped the value.
  it.each([
    ['a metadata number beyond 2^53', '{"a":9007199254740992}'],
    ['a metadata number in exponent form', '{"a":1e21}'],
    ['a metadata number that underflows DynamoDB', '{"a":5e-324}'],
    ['a metadata number at the double maximum', '{"a":1.7976931348623157e308}'],
    ['the metadata key "__proto__"', '{"__proto__":"x"}'],
    ['the metadata key "constructor"', '{"constructor":"x"}'],
    ['the metadata key "__proto__" inside a JSON string', '"{\\"__proto__\\":{\\"polluted\\":1}}"'],
  ])('%s → 400 validation_failed on metadata, nothing written', async (_label, metadataJson) => {
    const { key, account } = await newAccount();
    const body = `${JSON.stringify(invoiceBody()).slice(0, -1)},"metadata":${metadataJson}}`;
    const result = await call('add-invoice', { key, body, idempotencyKey: 'regression' });
    expectErrorEnvelope(result, 400);
    expect(result.body.errors[0].field).toBe('metadata');
    expect((await accountState(account.companyId)).invoices).toBe(0);
    expect(await idempotencyRecordExists(account.companyId, 'add-invoice', 'regression')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('plain metadata numbers, and keys named like Object.prototype members, are stored and returned unchanged', async () => {
    const { key } = await newAccount();
    const metadata = {
      toString: 'x',
      valueOf: 2,
      hasOwnProperty: true,
      big: Number.MAX_SAFE_INTEGER,
      small: -0.25,
      tiny: 0.000001,
    };
    const result = await call('add-invoice', { key, body: invoiceBody({ metadata }) });
    expect(result.status, result.rawBody).toBe(201);
    expect(result.body.data.metadata).toEqual(metadata);
  });
});
