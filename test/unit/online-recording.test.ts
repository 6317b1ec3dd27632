/**
 * Recording from Paystack's word, pure (shared/domain/online-recording.ts, docs/getting-paid-online.md "Recording"):
 * the channel mapping, the checkout offer and every reason a verified transaction records nothing; a recorded one is
 * split as splitOnlinePayment says, dated in the account's zone, and saves a card only when the invoice asked.
 */
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { DEFAULT_PAYSTACK_FEES } from '../../shared/domain/online-payment.ts';
import {
  CHECKOUT_REFERENCE_PATTERN,
  type CheckoutAttempt,
  checkoutOffer,
  checkoutReference,
  decideOnlineRecording,
  onlineChannel,
  type RecordingFacts,
  type VerifiedCharge,
} from '../../shared/domain/online-recording.ts';

describe('onlineChannel', () => {
  it('maps card, bank/bank_transfer/dedicated_nuban and ussd; keeps any other as given', () => {
    expect(['card', 'bank', 'bank_transfer', 'dedicated_nuban', 'ussd'].map(onlineChannel)).toEqual([
      'Card',
      'BankTransfer',
      'BankTransfer',
      'BankTransfer',
      'USSD',
    ]);
    for (const other of ['mobile_money', 'qr', 'eft', 'apple_pay', 'Card']) expect(onlineChannel(other)).toBe(other);
  });
});

const REF = 'ABCDEFGHIJ0123456789';
const REFERENCE = checkoutReference(REF, '01JABCDEFGHJKMNPQRSTVWXYZ0');

function invoice(overrides: { due?: number; total?: number; deleted?: boolean; tokenize?: boolean } = {}): Invoice {
  const total = overrides.total ?? 100_000;
  const due = overrides.due ?? total;
  return {
    details: {
      id: 7,
      companyId: 1,
      clientId: 3,
      referenceCode: REF,
      feeBearer: 'client',
      dueDate: 1_900_000_000,
      currency: 'NGN',
      createdAt: '2026-01-01 00:00:00',
      lines: [],
      client: {} as Invoice['details']['client'],
      ...(overrides.tokenize ? { tokenize: true } : {}),
    },
    balance: {
      totalKobo: total,
      amountPaidKobo: total - due,
      amountDueKobo: due,
      paymentStatus: due === 0 ? 'paid' : due === total ? 'unpaid' : 'partially_paid',
      paidAt: null,
      paymentsCount: 0,
      deletedAt: overrides.deleted ? '2026-01-02 00:00:00' : null,
      version: 1,
      updatedAt: '2026-01-01 00:00:00',
    },
  };
}

const attempt = (overrides: Partial<CheckoutAttempt> = {}): CheckoutAttempt => ({
  reference: REFERENCE,
  companyId: 1,
  referenceCode: REF,
  invoiceId: 7,
  expectedKobo: 101_523,
  amountDueKobo: 100_000,
  feeBearer: 'client',
  fees: DEFAULT_PAYSTACK_FEES,
  createdAt: '2026-01-01 00:00:00',
  ...overrides,
});

const charge = (overrides: Partial<VerifiedCharge> = {}): VerifiedCharge => ({
  reference: REFERENCE,
  status: 'success',
  amountKobo: 101_523,
  currency: 'NGN',
  transactionId: '4099',
  channel: 'card',
  gatewayResponse: 'Successful',
  message: 'Approved',
  paidAt: '2026-03-31T23:30:00.000Z',
  feesKobo: 1_523,
  authorization: {
    code: 'AUTH_x',
    reusable: true,
    brand: 'visa',
    last4: '4081',
    expMonth: '12',
    expYear: '2030',
    signature: 'SIG_1',
  },
  ...overrides,
});

const facts = (overrides: Partial<RecordingFacts> = {}): RecordingFacts => ({
  companyId: 1,
  attempt: attempt(),
  charge: charge(),
  invoice: invoice(),
  timeZone: 'Africa/Lagos',
  now: new Date('2026-05-01T12:00:00Z'),
  ...overrides,
});

describe('decideOnlineRecording', () => {
  it('records a success in NGN: the amount due credited, the fee kept, dated in the account zone', () => {
    const decision = decideOnlineRecording(facts());
    expect(decision).toEqual({
      kind: 'record',
      split: { outcome: 'paid', creditKobo: 100_000, refundKobo: 0, clientFeeKobo: 1_523 },
      // 23:30 UTC on 31 March is 00:30 on 1 April in Lagos.
      paidOn: { year: 2026, month: 4, day: 1 },
      saveCard: false,
    });
  });

  it('records nothing for a reference never issued, another account’s, or a mismatched one', () => {
    expect(decideOnlineRecording(facts({ attempt: undefined }))).toEqual({
      kind: 'ignore',
      because: 'unknown_reference',
    });
    expect(decideOnlineRecording(facts({ companyId: 2 }))).toEqual({ kind: 'ignore', because: 'unknown_reference' });
    expect(decideOnlineRecording(facts({ charge: charge({ reference: `${REFERENCE}X` }) }))).toEqual({
      kind: 'ignore',
      because: 'reference_mismatch',
    });
  });

  it('records nothing unless Paystack says success, in NGN, for an amount', () => {
    for (const status of ['abandoned', 'failed', 'ongoing', 'pending', 'reversed', 'Success'])
      expect(decideOnlineRecording(facts({ charge: charge({ status }) }))).toEqual({
        kind: 'ignore',
        because: 'not_successful',
      });
    expect(decideOnlineRecording(facts({ charge: charge({ currency: 'USD' }) }))).toEqual({
      kind: 'ignore',
      because: 'not_ngn',
    });
    expect(decideOnlineRecording(facts({ charge: charge({ amountKobo: 0 }) }))).toEqual({
      kind: 'ignore',
      because: 'no_amount',
    });
  });

  it('answers "already recorded" once the attempt has its payment, whatever Paystack says now', () => {
    expect(decideOnlineRecording(facts({ attempt: attempt({ recordedPaymentId: 12 }) }))).toEqual({
      kind: 'already_recorded',
      paymentId: 12,
    });
  });

  it('a tampered (short) amount is a partial payment; a voided or paid invoice refunds the whole amount', () => {
    const short = decideOnlineRecording(facts({ charge: charge({ amountKobo: 50_000 }) }));
    expect(short.kind === 'record' && short.split.outcome).toBe('partial');
    for (const state of [invoice({ deleted: true }), invoice({ due: 0 })]) {
      const decision = decideOnlineRecording(facts({ invoice: state }));
      expect(decision.kind === 'record' && decision.split).toEqual({
        outcome: 'refunded',
        creditKobo: 0,
        refundKobo: 101_523,
        clientFeeKobo: 0,
      });
    }
  });

  it('saves a reusable card only for a tokenize invoice that took the payment', () => {
    const saves = (f: Partial<RecordingFacts>) => {
      const decision = decideOnlineRecording(facts(f));
      return decision.kind === 'record' && decision.saveCard;
    };
    expect(saves({ invoice: invoice({ tokenize: true }) })).toBe(true);
    expect(saves({ invoice: invoice({ tokenize: true, deleted: true }) })).toBe(false);
    expect(saves({ invoice: invoice({ tokenize: true }), charge: charge({ channel: 'ussd' }) })).toBe(false);
    const notReusable = charge({ authorization: { ...charge().authorization!, reusable: false } });
    expect(saves({ invoice: invoice({ tokenize: true }), charge: notReusable })).toBe(false);
  });
});

describe('checkoutOffer and references', () => {
  it('offers the checkout amount of an open NGN invoice of a connected account; says why not otherwise', () => {
    expect(checkoutOffer(invoice(), DEFAULT_PAYSTACK_FEES)).toEqual({
      ok: true,
      amountKobo: 101_523,
      feeBearer: 'client',
    });
    expect(checkoutOffer(invoice({ due: 0 }), DEFAULT_PAYSTACK_FEES)).toEqual({ ok: false, refusal: 'paid' });
    expect(checkoutOffer(invoice({ deleted: true }), DEFAULT_PAYSTACK_FEES)).toEqual({ ok: false, refusal: 'void' });
    expect(checkoutOffer(invoice(), undefined)).toEqual({ ok: false, refusal: 'not_connected' });
  });

  it('a reference is the reference code and a ULID, within Paystack’s allowed characters', () => {
    expect(REFERENCE).toMatch(CHECKOUT_REFERENCE_PATTERN);
    expect(REFERENCE).toMatch(/^[A-Za-z0-9.=-]+$/);
  });
});
