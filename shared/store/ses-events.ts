/**
 * SES's reports about a message it accepted, as the configuration set's event destination delivers them: EventBridge
 * events (`source` `aws.ses`) whose `detail` is SES's event record — `eventType` Bounce, Complaint or Reject, and the
 * `mail` object with the message's tags, among them the mail job (store/mail.ts `MAIL_JOB_TAG`). The local SES
 * server of `npm start` builds the same events for the mailbox simulator's addresses. Parsing is here, beside the
 * sender that tags the message; what a report does to a job is the domain's (domain/invoice-mail.ts).
 */
import { MAIL_JOB_ID_PATTERN, type SesNotice } from '../domain/invoice-mail.ts';
import { isRecord } from '../guards.ts';
import { MAIL_JOB_TAG } from './mail.ts';

/** The SES event types the stack routes to the mail-events function (infra/mail.ts) and how each maps to a notice. */
export const SES_NOTICE_TYPES = { Bounce: 'bounce', Complaint: 'complaint', Reject: 'reject' } as const;

/** An EventBridge event as Lambda receives it; only `detail` is read. */
export interface SesEventBridgeEvent {
  source?: string;
  'detail-type'?: string;
  detail?: unknown;
}

export interface ParsedSesNotice {
  jobId: string;
  notice: SesNotice;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The job and the notice an event reports, or undefined for an event about anything else (not ours, or not a notice). */
export function parseSesNotice(event: SesEventBridgeEvent): ParsedSesNotice | undefined {
  const detail = event.detail;
  if (!isRecord(detail)) return undefined;
  const kind = SES_NOTICE_TYPES[text(detail.eventType) as keyof typeof SES_NOTICE_TYPES];
  const mail = detail.mail;
  if (!kind || !isRecord(mail)) return undefined;
  const tags = isRecord(mail.tags) ? mail.tags : {};
  const jobId = Array.isArray(tags[MAIL_JOB_TAG]) ? text(tags[MAIL_JOB_TAG][0]) : '';
  if (!MAIL_JOB_ID_PATTERN.test(jobId)) return undefined;
  return { jobId, notice: { kind, detail: describe(kind, detail) } };
}

/** One line: who, and how SES classified it (`Permanent/General: bounce@… (smtp; 550 5.1.1 user unknown)`). */
function describe(kind: SesNotice['kind'], detail: Record<string, unknown>): string {
  if (kind === 'reject') {
    const reject = isRecord(detail.reject) ? detail.reject : {};
    return text(reject.reason) || 'rejected';
  }
  const body = isRecord(detail[kind]) ? (detail[kind] as Record<string, unknown>) : {};
  const recipientsKey = kind === 'bounce' ? 'bouncedRecipients' : 'complainedRecipients';
  const recipients = Array.isArray(body[recipientsKey]) ? (body[recipientsKey] as unknown[]) : [];
  const who = recipients
    .filter(isRecord)
    .map((r) => `${text(r.emailAddress)}${r.diagnosticCode ? ` (${text(r.diagnosticCode)})` : ''}`)
    .join(', ');
  const type =
    kind === 'bounce'
      ? [text(body.bounceType), text(body.bounceSubType)].filter(Boolean).join('/')
      : text(body.complaintFeedbackType);
  return `${type ? `${type}: ` : ''}${who || 'recipient unknown'}`.slice(0, 500);
}
