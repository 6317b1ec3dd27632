/**
 * Invoice e-mail in the store (docs/sending-invoices.md "Delivery"): the mail jobs — the outbox's mail kind
 * (store/outbox.ts), one per send or reminder, put in the transaction of what queues it, so a job exists exactly when
 * that committed; the mailer records each attempt and SES's later reports on it, and changes the invoice's mail fields
 * (store/invoices.ts `mailHeaderAction`) only while they still describe that job — and sending one built message with
 * SESv2, tagged with its job so that SES's reports name it; and the reading of those reports (below).
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config.ts';
import type { MailJobState } from '../domain/invoice.ts';
import { MAIL_JOB_ID_PATTERN, type ReceiptFacts, type SendResult, type SesNotice } from '../domain/invoice-mail.ts';
import { isRecord } from '../guards.ts';
import { monotonicUlids } from '../ulid.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { keys, mailIndexKeys } from './keys.ts';
import { latestListed } from './listing-index.ts';
import { TABLE } from './table.ts';
import { putNew, type TransactItem } from './write-executor.ts';

export const MAIL_JOB_ENTITY = 'mail_job';
/** The job's id (`mail_` + a ULID: domain/invoice-mail.ts `MAIL_JOB_ID_PATTERN`), the outbox's mail kind (store/outbox.ts). */
export const MAIL_JOB_ID_ATTRIBUTE = 'job_id';
/** Jobs are kept 30 days (`mail:deliveries` lists them), then DynamoDB TTL deletes them. */
export const MAIL_JOB_TTL_SECONDS = 30 * 24 * 60 * 60;

const nextUlid = monotonicUlids();
export const newMailJobId = (): string => `mail_${nextUlid()}`;

export interface MailJob {
  jobId: string;
  companyId: number;
  referenceCode: string;
  to: string;
  cc: string[];
  message: string | undefined;
  state: MailJobState;
  attempts: number;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) of the send. */
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  lastError: string | null;
  sesMessageId: string | null;
  sentAt: string | null;
  /** A reminder's job (docs/receivables.md "Reminders"): its offset, and the days from the due date when queued. */
  reminder?: { offset: number; daysFromDue: number };
  /** A payment's receipt (docs/getting-paid-online.md "Receipt e-mails"): the payment, as it was recorded. */
  receipt?: MailReceipt;
  /**
   * A client statement's job (docs/receivables.md "One client: the statement"): the client and the period's effective range
   * (YYYY-MM-DD); its `referenceCode` is empty. The statement is read and drawn when the mailer sends it.
   */
  statement?: StatementMail;
}

/** What a new job says; the rest of a job starts as nothing tried yet. */
export interface NewMailJob {
  companyId: number;
  referenceCode: string;
  to: string;
  createdAt: string;
  /** Given when the job's id is already written elsewhere in the same transaction (the invoice's mail fields). */
  jobId?: string;
  cc?: string[];
  message?: string | undefined;
  reminder?: MailJob['reminder'];
  receipt?: MailReceipt;
  statement?: StatementMail;
}

/** A job queued and not yet tried: the one constructor of every send, reminder, receipt and statement. */
export function queuedMailJob({ jobId, cc, message, ...what }: NewMailJob): MailJob {
  return {
    ...what,
    jobId: jobId ?? newMailJobId(),
    cc: cc ?? [],
    message,
    state: 'queued',
    attempts: 0,
    lastAttemptAt: null,
    nextAttemptAt: null,
    lastError: null,
    sesMessageId: null,
    sentAt: null,
  };
}

export interface StatementMail {
  clientId: number;
  from: string;
  to: string;
}

export interface MailReceipt extends ReceiptFacts {
  paymentId: number;
}

const receiptAttributes = (receipt: MailReceipt) => ({
  receipt_payment_id: receipt.paymentId,
  receipt_amount: receipt.amountKobo,
  receipt_date: receipt.transactionDate,
  receipt_channel: receipt.channel,
  receipt_amount_due: receipt.amountDueKobo,
});

const receiptFromItem = (item: Item): MailReceipt => ({
  paymentId: Number(item.receipt_payment_id),
  amountKobo: Number(item.receipt_amount),
  transactionDate: Number(item.receipt_date),
  channel: String(item.receipt_channel),
  amountDueKobo: Number(item.receipt_amount_due),
});

function jobItem(job: MailJob, nowMs: number): Item {
  return {
    ...keys.mailJob(job.jobId),
    entity: MAIL_JOB_ENTITY,
    [MAIL_JOB_ID_ATTRIBUTE]: job.jobId,
    company_id: job.companyId,
    reference_code: job.referenceCode,
    mail_to: job.to,
    ...(job.cc.length > 0 ? { mail_cc: job.cc } : {}),
    ...(job.message === undefined ? {} : { mail_message: job.message }),
    job_state: job.state,
    attempts: job.attempts,
    ...(job.reminder ? { reminder_offset: job.reminder.offset, reminder_days: job.reminder.daysFromDue } : {}),
    ...(job.receipt ? receiptAttributes(job.receipt) : {}),
    ...(job.statement
      ? {
          statement_client_id: job.statement.clientId,
          statement_from: job.statement.from,
          statement_to: job.statement.to,
        }
      : {}),
    created_at: job.createdAt,
    GSI1PK: mailIndexKeys.partition(job.companyId),
    GSI1SK: mailIndexKeys.sort(job.jobId),
    [TABLE.ttlAttribute]: Math.floor(nowMs / 1000) + MAIL_JOB_TTL_SECONDS,
  };
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function jobFromItem(item: Item): MailJob {
  return {
    jobId: String(item[MAIL_JOB_ID_ATTRIBUTE]),
    companyId: Number(item.company_id),
    referenceCode: String(item.reference_code),
    to: String(item.mail_to),
    cc: Array.isArray(item.mail_cc) ? item.mail_cc.map(String) : [],
    message: typeof item.mail_message === 'string' ? item.mail_message : undefined,
    state: item.job_state as MailJobState,
    attempts: Number(item.attempts ?? 0),
    createdAt: String(item.created_at),
    lastAttemptAt: textOrNull(item.last_attempt_at),
    nextAttemptAt: textOrNull(item.next_attempt_at),
    lastError: textOrNull(item.last_error),
    sesMessageId: textOrNull(item.ses_message_id),
    sentAt: textOrNull(item.sent_at),
    ...(typeof item.reminder_offset === 'number'
      ? { reminder: { offset: item.reminder_offset, daysFromDue: Number(item.reminder_days) } }
      : {}),
    ...(typeof item.receipt_payment_id === 'number' ? { receipt: receiptFromItem(item) } : {}),
    ...(typeof item.statement_client_id === 'number'
      ? {
          statement: {
            clientId: item.statement_client_id,
            from: String(item.statement_from),
            to: String(item.statement_to),
          },
        }
      : {}),
  };
}

/**
 * The put of a new job, in the transaction of what queues it: a send (with the header's `queued`: store/invoices.ts
 * `sendHeaderAction`), a reminder or a payment's receipt (which leave the invoice's mail fields, describing its latest
 * send, alone).
 */
export const mailJobPut = (table: string, job: MailJob, nowMs: number): TransactItem =>
  putNew(table, jobItem(job, nowMs));

/** The job, read consistently; undefined when unknown (or expired). */
export async function getMailJob(jobId: string): Promise<MailJob | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.mailJob(jobId), ConsistentRead: true }),
  );
  return out.Item ? jobFromItem(out.Item) : undefined;
}

/** A change of a job, made on condition that it is still in the state and attempt count it was read in. */
export interface JobChange {
  before: Pick<MailJob, 'jobId' | 'state' | 'attempts'>;
  state: MailJobState;
  attempts: number;
  /** ISO 8601 instant of the attempt or report. */
  at: string;
  error?: string | null;
  nextAttemptAt?: string | null;
  sesMessageId?: string;
  sentAt?: string;
}

export function jobChangeAction(table: string, change: JobChange): TransactItem {
  const values: Record<string, unknown> = {
    ':before_state': change.before.state,
    ':before_attempts': change.before.attempts,
    ':state': change.state,
    ':attempts': change.attempts,
    ':at': change.at,
  };
  const set = ['job_state = :state', 'attempts = :attempts', 'last_attempt_at = :at'];
  const remove: string[] = [];
  const optional: [keyof JobChange, string][] = [
    ['error', 'last_error'],
    ['nextAttemptAt', 'next_attempt_at'],
    ['sesMessageId', 'ses_message_id'],
    ['sentAt', 'sent_at'],
  ];
  for (const [field, attribute] of optional) {
    const value = change[field];
    if (value === undefined) continue;
    if (value === null) remove.push(attribute);
    else {
      set.push(`${attribute} = :${attribute}`);
      values[`:${attribute}`] = value;
    }
  }
  return {
    Update: {
      TableName: table,
      Key: keys.mailJob(change.before.jobId),
      ConditionExpression: 'job_state = :before_state AND attempts = :before_attempts',
      UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ExpressionAttributeValues: values,
    },
  };
}

/** An account's most recent sends, newest first (one Query on GSI1). */
export async function listMailJobs(companyId: number, limit: number): Promise<MailJob[]> {
  return (await latestListed(mailIndexKeys.partition(companyId), limit)).map(jobFromItem);
}

/** The message tag carrying the job id (SES event `mail.tags`); tag values allow letters, digits, `_` and `-`. */
export const MAIL_JOB_TAG = 'mail_job_id';

/**
 * SES answers in well under a second; a request still open after 10 s is stuck. The SDK retries throttling and 5xx
 * itself (standard mode, 3 attempts in all) before the mailer counts an attempt as failed and schedules the next.
 */
export const SES_TIMEOUTS = { connectionTimeoutMs: 2_000, requestTimeoutMs: 10_000, maxAttempts: 3 } as const;

export interface OutgoingMail {
  from: string;
  to: string;
  cc: readonly string[];
  raw: Uint8Array;
  jobId: string;
}

let client: SESv2Client | undefined;

function sesClient(): SESv2Client {
  const config = loadConfig();
  client ??= new SESv2Client({
    region: config.region,
    ...(config.sesEndpoint ? { endpoint: config.sesEndpoint, credentials: config.localCredentials } : {}),
    maxAttempts: SES_TIMEOUTS.maxAttempts,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: SES_TIMEOUTS.connectionTimeoutMs,
      requestTimeout: SES_TIMEOUTS.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  });
  return client;
}

/** Forgets the client, so that the next send reads SES_ENDPOINT again (the local runtime and tests set it). */
export function resetMailSender(): void {
  client = undefined;
}

export async function sendRawMail(mail: OutgoingMail): Promise<SendResult> {
  const configurationSet = loadConfig().mailConfigurationSet;
  try {
    const out = await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: mail.from,
        Destination: { ToAddresses: [mail.to], ...(mail.cc.length > 0 ? { CcAddresses: [...mail.cc] } : {}) },
        Content: { Raw: { Data: mail.raw } },
        EmailTags: [{ Name: MAIL_JOB_TAG, Value: mail.jobId }],
        ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
      }),
    );
    return { kind: 'accepted', messageId: out.MessageId ?? '' };
  } catch (error) {
    return classifySesFailure(error);
  }
}

/** 4xx codes that mean "not now" rather than "never": throttling and the sending quota. */
const TRANSIENT_CODES = new Set(['TooManyRequestsException', 'LimitExceededException', 'ThrottlingException']);

/**
 * Throttling, a 5xx, a timeout or no answer at all → transient (the message may be tried again); any other refusal
 * (MessageRejected, an unverified sender, a suspended account, a bad request) → rejected: the same message would be
 * refused again, and saying so at once is the truth the invoice's `mail_status` owes the merchant.
 */
export function classifySesFailure(error: unknown): SendResult {
  const { name, message, $metadata } = (error ?? {}) as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = $metadata?.httpStatusCode;
  const described = `${name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}: ${message ?? 'no message'}`.slice(0, 500);
  if (status === undefined || status >= 500 || (name !== undefined && TRANSIENT_CODES.has(name)))
    return { kind: 'transient', error: described };
  return { kind: 'rejected', error: described };
}

/*
 * SES's reports about a message it accepted, as the configuration set's event destination delivers them: EventBridge
 * events (`source` `aws.ses`) whose `detail` is SES's event record — `eventType` Bounce, Complaint or Reject, and the
 * `mail` object with the message's tags, among them the mail job (`MAIL_JOB_TAG`). The local SES
 * server of `npm start` builds the same events for the mailbox simulator's addresses. Parsing is here, beside the
 * sender that tags the message; what a report does to a job is the domain's (domain/invoice-mail.ts).
 */

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
