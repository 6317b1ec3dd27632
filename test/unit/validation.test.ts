import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../shared/domain/refusal.ts';
import { paymentHistorySchema } from '../../shared/schemas/history.ts';
import { addPaymentSchema } from '../../shared/schemas/payment.ts';
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
