/**
 * SES's side, pure: how a refusal is classified and how a report is read (shared/store/mail.ts), and the local
 * simulator that builds the same reports (infra/local/ses-simulator.ts) — whose events the parser must read exactly
 * as it reads SES's.
 */
import { describe, expect, it } from 'vitest';
import { rejectedRecipients, simulatedEvents } from '../../infra/local/ses-simulator.ts';
import { classifySesFailure, MAIL_JOB_TAG, parseSesNotice } from '../../shared/store/mail.ts';

const JOB = 'mail_01KAAAAAAAAAAAAAAAAAAAAAAA';
const request = (to: string[], cc: string[] = []) => ({
  FromEmailAddress: 'invoices@example.com',
  ConfigurationSetName: 'invoicing-prod',
  Destination: { ToAddresses: to, CcAddresses: cc },
  EmailTags: [{ Name: MAIL_JOB_TAG, Value: JOB }],
});

describe('classifySesFailure', () => {
  const failure = (name: string, status?: number) =>
    Object.assign(new Error('boom'), { name, ...(status ? { $metadata: { httpStatusCode: status } } : {}) });

  it('throttling, the sending quota, a 5xx and no answer at all are worth another attempt', () => {
    for (const error of [
      failure('TooManyRequestsException', 429),
      failure('LimitExceededException', 400),
      failure('InternalFailure', 500),
      failure('TimeoutError'),
    ])
      expect(classifySesFailure(error).kind).toBe('transient');
  });

  it('any other refusal is permanent, described with its name and status', () => {
    for (const name of ['MessageRejected', 'MailFromDomainNotVerifiedException', 'AccountSuspendedException'])
      expect(classifySesFailure(failure(name, 400))).toEqual({ kind: 'rejected', error: `${name} (HTTP 400): boom` });
  });
});

describe('parseSesNotice', () => {
  it('reads a bounce, a complaint and a reject with the job from the message tags', () => {
    const bounce = {
      detail: {
        eventType: 'Bounce',
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [{ emailAddress: 'x@y.ng', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
        },
        mail: { messageId: 'm', tags: { [MAIL_JOB_TAG]: [JOB] } },
      },
    };
    expect(parseSesNotice(bounce)).toEqual({
      jobId: JOB,
      notice: { kind: 'bounce', detail: 'Permanent/General: x@y.ng (smtp; 550 5.1.1 user unknown)' },
    });
    const complaint = {
      detail: {
        eventType: 'Complaint',
        complaint: { complaintFeedbackType: 'abuse', complainedRecipients: [{ emailAddress: 'x@y.ng' }] },
        mail: { tags: { [MAIL_JOB_TAG]: [JOB] } },
      },
    };
    expect(parseSesNotice(complaint)?.notice).toEqual({ kind: 'complaint', detail: 'abuse: x@y.ng' });
    const reject = {
      detail: { eventType: 'Reject', reject: { reason: 'Bad content' }, mail: { tags: { [MAIL_JOB_TAG]: [JOB] } } },
    };
    expect(parseSesNotice(reject)?.notice).toEqual({ kind: 'reject', detail: 'Bad content' });
  });

  it('ignores other event types, other senders (no job tag) and malformed events', () => {
    const mail = { tags: { [MAIL_JOB_TAG]: [JOB] } };
    expect(parseSesNotice({ detail: { eventType: 'Delivery', mail } })).toBeUndefined();
    expect(parseSesNotice({ detail: { eventType: 'Bounce', mail: { tags: {} } } })).toBeUndefined();
    expect(
      parseSesNotice({ detail: { eventType: 'Bounce', mail: { tags: { [MAIL_JOB_TAG]: ['evil'] } } } }),
    ).toBeUndefined();
    expect(parseSesNotice({ detail: 'Bounce' })).toBeUndefined();
    expect(parseSesNotice({})).toBeUndefined();
  });
});

describe('the local mailbox simulator', () => {
  it('reports a hard bounce for bounce@ (also bounce+label@) and suppressionlist@, as EventBridge events', () => {
    const [event, ...more] = simulatedEvents(
      request(['Bounce+x@Simulator.AmazonSES.com'], ['suppressionlist@simulator.amazonses.com']),
      'm1',
    );
    expect(more).toEqual([]);
    expect(event).toMatchObject({ source: 'aws.ses', 'detail-type': 'Email Bounced' });
    const parsed = parseSesNotice(event!);
    expect(parsed?.jobId).toBe(JOB);
    expect(parsed?.notice.detail).toBe(
      'Permanent/General: bounce+x@simulator.amazonses.com (smtp; 550 5.1.1 user unknown), suppressionlist@simulator.amazonses.com (smtp; 550 5.1.1 user unknown)',
    );
    expect(event!.detail).toMatchObject({
      mail: { messageId: 'm1', tags: { 'ses:configuration-set': ['invoicing-prod'] } },
    });
  });

  it('reports a complaint for complaint@, and nothing for success@, ooto@ or any other address', () => {
    const [complaint] = simulatedEvents(request(['complaint@simulator.amazonses.com']), 'm2');
    expect(parseSesNotice(complaint!)?.notice).toEqual({
      kind: 'complaint',
      detail: 'abuse: complaint@simulator.amazonses.com',
    });
    const quiet = request(['success@simulator.amazonses.com', 'ooto@simulator.amazonses.com', 'bounce@example.com']);
    expect(simulatedEvents(quiet, 'm3')).toEqual([]);
  });

  it('refuses (locally) any recipient in the reserved .invalid domain', () => {
    expect(rejectedRecipients(request(['a@example.com'], ['Name <b@shop.invalid>']))).toEqual([
      'Name <b@shop.invalid>',
    ]);
    expect(rejectedRecipients(request(['a@invalid.example.com']))).toEqual([]);
  });
});
