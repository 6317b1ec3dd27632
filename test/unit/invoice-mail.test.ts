/** The pure rules of e-mailing an invoice (shared/domain/invoice-mail.ts): recipients, attempts and SES's reports. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Invoice, MailJobState } from '../../shared/domain/invoice.ts';
import {
  decideAttempt,
  decideNotice,
  decideSend,
  describesJob,
  MAIL_RETRY_SCHEDULE,
  reasonNotToSend,
} from '../../shared/domain/invoice-mail.ts';
import { attemptsOf } from '../../shared/domain/retry-schedule.ts';

const invoice = (overrides: { email?: string; deletedAt?: string | null; companyId?: number } = {}): Invoice =>
  ({
    details: { companyId: overrides.companyId ?? 1, client: { email: overrides.email ?? 'ada@example.com' } },
    balance: { deletedAt: overrides.deletedAt ?? null },
  }) as Invoice;

describe('decideSend', () => {
  it("sends to the client's address by default, and to `to` when given", () => {
    expect(decideSend(invoice(), 1, {})).toEqual({ ok: true, value: { to: 'ada@example.com', cc: [] } });
    expect(decideSend(invoice(), 1, { to: 'boss@client.ng' })).toEqual({
      ok: true,
      value: { to: 'boss@client.ng', cc: [] },
    });
  });

  it('drops repeated cc addresses and the `to` address itself, compared case-insensitively, keeping the order', () => {
    const decision = decideSend(invoice(), 1, { cc: ['B@x.ng', 'ADA@example.com', 'a@x.ng', 'b@x.ng'] });
    expect(decision).toEqual({ ok: true, value: { to: 'ada@example.com', cc: ['B@x.ng', 'a@x.ng'] } });
  });

  it("refuses another account's invoice (404), a voided one (409) and one without a recipient (422)", () => {
    const codeOf = (decision: ReturnType<typeof decideSend>) => (decision.ok ? 'ok' : decision.refusal.code);
    expect(codeOf(decideSend(undefined, 1, {}))).toBe('invoice_not_found');
    expect(codeOf(decideSend(invoice({ companyId: 2 }), 1, {}))).toBe('invoice_not_found');
    expect(codeOf(decideSend(invoice({ deletedAt: '2026-01-01 00:00:00' }), 1, {}))).toBe('invoice_deleted');
    expect(codeOf(decideSend(invoice({ email: '' }), 1, {}))).toBe('recipient_missing');
    expect(codeOf(decideSend(invoice({ email: '' }), 1, { to: 'x@y.ng' }))).toBe('ok');
  });

  it('never lists the same address twice among to and cc (property)', () => {
    const address = fc.constantFrom('a@x.ng', 'A@X.NG', 'b@x.ng', 'c@x.ng', 'B@x.ng');
    fc.assert(
      fc.property(address, fc.array(address, { maxLength: 10 }), (to, cc) => {
        const decision = decideSend(invoice(), 1, { to, cc });
        if (!decision.ok) return false;
        const all = [decision.value.to, ...decision.value.cc].map((a) => a.toLowerCase());
        return new Set(all).size === all.length;
      }),
    );
  });
});

describe('decideAttempt', () => {
  it('accepted → sent; rejected → failed at once with the reason', () => {
    expect(decideAttempt({ kind: 'accepted', messageId: 'm1' }, 0, 60_000)).toEqual({ state: 'sent', messageId: 'm1' });
    expect(decideAttempt({ kind: 'rejected', error: 'MessageRejected' }, 0, 60_000)).toEqual({
      state: 'failed',
      error: 'MessageRejected',
    });
  });

  it('transient → queued again after the mail schedule (1, 5, 30 min … ×base), then failed after the last attempt', () => {
    const transient = { kind: 'transient' as const, error: 'TooManyRequestsException (HTTP 429): slow down' };
    MAIL_RETRY_SCHEDULE.factors.forEach((factor, index) => {
      expect(decideAttempt(transient, index, 1000)).toEqual({
        state: 'queued',
        error: transient.error,
        retryInMs: factor * 1000,
      });
    });
    expect(decideAttempt(transient, attemptsOf(MAIL_RETRY_SCHEDULE) - 1, 1000)).toEqual({
      state: 'failed',
      error: `Not sent after ${attemptsOf(MAIL_RETRY_SCHEDULE)} attempts; the last: ${transient.error}`,
    });
  });
});

describe('reasonNotToSend', () => {
  it('sends a live invoice; not a voided or missing one', () => {
    expect(reasonNotToSend(invoice())).toBeUndefined();
    expect(reasonNotToSend(invoice({ deletedAt: '2026-01-01 00:00:00' }))).toMatch(/voided/);
    expect(reasonNotToSend(undefined)).toMatch(/no longer exists/);
  });
});

describe('decideNotice', () => {
  const bounce = { kind: 'bounce' as const, detail: 'Permanent/General: x@y.ng' };
  const complaint = { kind: 'complaint' as const, detail: 'abuse: x@y.ng' };
  const reject = { kind: 'reject' as const, detail: 'Bad content' };

  it('a bounce or complaint makes a sent (or still queued) job bounced; a reject makes it failed', () => {
    for (const state of ['sent', 'queued'] as const) {
      expect(decideNotice(state, bounce)).toEqual({ state: 'bounced', error: 'Bounced: Permanent/General: x@y.ng' });
      expect(decideNotice(state, complaint)).toEqual({
        state: 'bounced',
        error: 'Marked as spam by the recipient: abuse: x@y.ng',
      });
      expect(decideNotice(state, reject)).toEqual({
        state: 'failed',
        error: 'Rejected by SES after acceptance: Bad content',
      });
    }
  });

  it('failed and bounced are final: a later report changes nothing', () => {
    for (const state of ['failed', 'bounced'] as MailJobState[])
      for (const notice of [bounce, complaint, reject]) expect(decideNotice(state, notice)).toBeUndefined();
  });
});

describe('describesJob', () => {
  it("is true only for the invoice's latest send", () => {
    const mail = { status: 'queued' as const, jobId: 'mail_B', sentAt: null, error: null };
    expect(describesJob(mail, 'mail_B')).toBe(true);
    expect(describesJob(mail, 'mail_A')).toBe(false);
    expect(describesJob(undefined, 'mail_A')).toBe(false);
  });
});
