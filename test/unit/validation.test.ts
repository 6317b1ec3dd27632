import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProfileValue } from '../../shared/domain/merchant-profile.ts';
import { Refusal } from '../../shared/domain/refusal.ts';
import { addClientSchema, updateClientSchema } from '../../shared/schemas/client.ts';
import { paymentHistorySchema } from '../../shared/schemas/history.ts';
import { addInvoiceSchema } from '../../shared/schemas/invoice.ts';
import { addPaymentSchema } from '../../shared/schemas/payment.ts';
import { sendInvoiceSchema } from '../../shared/schemas/send.ts';
import { parseRequest } from '../../shared/validation.ts';

const payment = { reference_code: 'R'.repeat(20), date: '11/20/2026', amount: '1,500.00', channel: 'POS' };

/** The refusal parseRequest throws, or undefined when it accepts. */
const refusal = (run: () => unknown): Refusal | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
};

describe('parseRequest', () => {
  it('returns the normalised request: amounts in kobo, dates as calendar dates', () => {
    // Act
    const input = parseRequest(addPaymentSchema, payment);
    // Assess
    expect(input).toEqual({
      reference_code: 'R'.repeat(20),
      date: { year: 2026, month: 11, day: 20 },
      amount: 150_000,
      channel: 'POS',
    });
  });

  it.each([[null], [[]], ['text'], [42], [true], [undefined]])(
    'refuses the body %j: it must be a JSON object',
    (body) => {
      // Act
      const error = refusal(() => parseRequest(addPaymentSchema, body));
      // Assess
      expect(error?.code).toBe('validation_failed');
      expect(error?.errors).toEqual([
        { code: 'invalid_type', field: null, message: 'the request body must be a JSON object' },
      ]);
    },
  );

  it('lists every problem with its field and a stable code, and names the field when there is one', () => {
    // Act
    const error = refusal(() => parseRequest(addPaymentSchema, { date: '2026-11-20', amount: '0', channel: 'Barter' }));
    // Assess
    expect(error?.errors.map((e) => [e.field, e.code])).toEqual([
      ['reference_code', 'required'],
      ['date', 'invalid_date'],
      ['amount', 'invalid_amount'],
      ['channel', 'invalid_enum'],
    ]);
    expect(error?.message).toBe('The request has 4 invalid fields.');
    expect(refusal(() => parseRequest(addPaymentSchema, { ...payment, channel: 'Barter' }))?.message).toMatch(
      /^channel: /,
    );
  });

  it('uses invalid_period when every problem is on a period field, validation_failed otherwise', () => {
    // Prepare
    const options = { periodFields: ['period', 'start', 'end'] };
    // Act
    const periodOnly = refusal(() => parseRequest(paymentHistorySchema, { period: 'fortnight' }, options));
    const mixed = refusal(() => parseRequest(paymentHistorySchema, { period: 'fortnight', limit: 'many' }, options));
    // Assess
    expect(periodOnly?.code).toBe('invalid_period');
    expect(mixed?.code).toBe('validation_failed');
  });

  it('refuses text that is not valid Unicode (an unpaired surrogate) as a field error, not later as a 500', () => {
    // Act
    const error = refusal(() => parseRequest(addPaymentSchema, { ...payment, reference_code: 'ABC\uD800DEF' }));
    // Assess
    expect(error?.errors).toEqual([
      {
        code: 'invalid_value',
        field: 'reference_code',
        message: 'must be valid Unicode text (no unpaired surrogates)',
      },
    ]);
  });

  it('either accepts or throws a refusal with at least one field error, for any JSON body (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        // Act
        const error = refusal(() => parseRequest(addPaymentSchema, body));
        // Assess
        if (error) expect(error.errors.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('e-mail addresses (docs/api.md "Clients", "Send an invoice")', () => {
  /** Every control character: C0, DEL and C1 (NUL, BS, ESC, DEL, U+0085 among them). */
  const CONTROLS = [
    ...Array.from({ length: 0x20 }, (_, code) => code),
    ...Array.from({ length: 0x21 }, (_, offset) => 0x7f + offset),
  ].map((code) => String.fromCharCode(code));
  const client = { first_name: 'A', last_name: 'B', phone: '+2348012345678' };
  const invoice = {
    client: { ...client, email: 'ada@example.com' },
    due_date: '12/30/2030',
    fee_bearer: 'client',
    items: [{ item: 'Thing', description: 'A thing', unit_cost: '10', quantity: 1 }],
  };
  /** Each request field that takes an address, and its field path. */
  const FIELDS = [
    { schema: addClientSchema, body: (email: string) => ({ ...client, email }), field: 'email' },
    { schema: updateClientSchema, body: (email: string) => ({ email }), field: 'email' },
    {
      schema: addInvoiceSchema,
      body: (email: string) => ({ ...invoice, client: { ...invoice.client, email } }),
      field: 'client.email',
    },
    { schema: sendInvoiceSchema, body: (to: string) => ({ to }), field: 'to' },
    { schema: sendInvoiceSchema, body: (cc: string) => ({ cc: ['ok@example.com', cc] }), field: 'cc.1' },
  ] as const;

  it('refuses an address with any control character in it, naming the field, wherever an address is taken', () => {
    expect(CONTROLS).toHaveLength(65);
    expect(CONTROLS).toEqual(expect.arrayContaining(['\u0000', '\b', '\u001b', '\u007f', '\u0085', '\u009f']));
    for (const { schema, body, field } of FIELDS) {
      expect(
        refusal(() => parseRequest(schema, body('ctrl@example.com'))),
        field,
      ).toBeUndefined();
      for (const control of CONTROLS) {
        const error = refusal(() => parseRequest(schema, body(`ct${control}rl@example.com`)));
        expect(error?.errors, `${field} ${JSON.stringify(control)}`).toEqual([
          { code: 'invalid_email', field, message: 'must be a valid email address, e.g. "ada@example.com"' },
        ]);
      }
    }
  });

  it('refuses a local part SES cannot send to (not 7-bit, or dots that are not a dot-atom); takes what RFC 5321 allows', () => {
    const refused = [
      'ọlá@example.com',
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      `${'a'.repeat(65)}@example.com`,
    ];
    const taken = [
      "o'brien+invoices@example.com",
      'a.b-c_d@example.com',
      'x!#$%&*/=?^`{|}~@example.ng',
      `${'a'.repeat(64)}@example.com`,
    ];
    for (const { schema, body, field } of FIELDS) {
      for (const address of refused)
        expect(refusal(() => parseRequest(schema, body(address)))?.errors, `${field} ${address}`).toEqual([
          { code: 'invalid_email', field, message: 'must be a valid email address, e.g. "ada@example.com"' },
        ]);
      for (const address of taken)
        expect(
          refusal(() => parseRequest(schema, body(address))),
          `${field} ${address}`,
        ).toBeUndefined();
    }
  });

  it("refuses one in the merchant's profile e-mail too (account:update --email)", () => {
    for (const control of CONTROLS)
      expect(parseProfileValue('email', `ct${control}rl@example.com`).ok, JSON.stringify(control)).toBe(false);
  });
});
