/**
 * Delivering invoice e-mail (docs/sending-invoices.md "Delivery", "Bounces and complaints"). One attempt of one mail
 * job — the deliver function of the outbox's mail kind (store/outbox.ts), which its worker (functions/mailer/handler.ts)
 * calls once per queue message: read the job, then the invoice and the merchant once, render the PDF, build one MIME
 * message, send it with SESv2 and record what SES answered, delivered meaning SES accepted it. At least once: a crash
 * between SES accepting and the status write leaves the job queued, and the next attempt sends the e-mail again.
 * Then SES's reports about a message it accepted: a bounce or a complaint makes the job `bounced`, a reject (SES found
 * a virus after accepting) `failed`. Each outcome is recorded in one transaction: the job, on condition that it is
 * still in the state it was read in; and — only while the invoice's mail fields still describe this job, its latest
 * send — those fields and the webhook event of the change (an open invoice's first acceptance also wakes it, so the
 * next sweep sends the reminder already due: docs/tax.md "Reminders"). A report about an older send therefore changes
 * that send's job and nothing the invoice says about the newer one. Logs carry the job, invoice and company, never an
 * address, the note or the message.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { todayForOverdue } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { formatTimestamp } from '../domain/dates.ts';
import type { Invoice, InvoiceMail, MailJobState } from '../domain/invoice.ts';
import { decideAttempt, decideNotice, describesJob, reasonNotToSend, type SesNotice } from '../domain/invoice-mail.ts';
import type { Logo } from '../domain/logo.ts';
import { wakesOnFirstSend } from '../domain/reminders.ts';
import { invoiceMailEvents } from '../domain/webhook-events.ts';
import { countMailOutcome, logger } from '../observability.ts';
import { buildDocumentMessage } from '../outbound/mime-message.ts';
import { renderInvoicePdf } from '../render/engines.ts';
import { invoiceEmailContent } from '../render/invoice-email.ts';
import { receiptEmailContent } from '../render/receipt-email.ts';
import { invoiceView } from '../representation/views.ts';
import { getAccountLogo } from '../store/account-logo.ts';
import { type Account, getAccount } from '../store/accounts.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { loadInvoices, mailHeaderAction } from '../store/invoices.ts';
import { getMailJob, jobChangeAction, type MailJob, parseSesNotice, sendRawMail } from '../store/mail.ts';
import { readInvoiceReceipts } from '../store/receipts.ts';
import { readVirtualAccount } from '../store/virtual-accounts.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { commitUnlessChanged, type TransactItem } from '../store/write-executor.ts';
import { documentOf } from './invoice-document.ts';
import type { JobOutcome } from './outbox.ts';
import { type PreparedMail, prepareStatementMail, type Read } from './statement-mail.ts';

export interface MailJobOutcome {
  state: MailJobState;
  attempts: number;
  /** Null clears the job's last error. */
  error: string | null;
  nextAttemptAt?: string | null;
  sesMessageId?: string;
  /** `YYYY-MM-DD HH:MM:SS` when SES accepted the message. */
  sentAt?: string;
}

const readInvoice = async (referenceCode: string) => (await loadInvoices([referenceCode])).get(referenceCode);

export async function deliverMailJob(jobId: string): Promise<JobOutcome> {
  const job = await getMailJob(jobId);
  if (!job) return skipped({ job_id: jobId }, 'unknown job');
  const log = { job_id: job.jobId, reference_code: job.referenceCode, company_id: job.companyId };
  if (job.state !== 'queued') return skipped(log, `already ${job.state}`);
  const prepared = job.statement ? await prepareStatementMail(job, job.statement, mailFrom) : await prepareInvoice(job);
  const { read } = prepared;
  if ('notToSend' in prepared)
    return finish(job, { state: 'failed', attempts: job.attempts, error: prepared.notToSend }, read, log);

  const result = await sendRawMail({ from: mailFrom(), to: job.to, cc: job.cc, raw: prepared.raw, jobId: job.jobId });
  const decision = decideAttempt(result, job.attempts, loadConfig().mailRetryBaseMs);
  const attempts = job.attempts + 1;
  if (decision.state === 'sent') {
    const sent = { state: 'sent' as const, attempts, error: null, nextAttemptAt: null };
    return finish(job, { ...sent, sesMessageId: decision.messageId, sentAt: formatTimestamp(new Date()) }, read, log);
  }
  if (decision.state === 'failed')
    return finish(job, { state: 'failed', attempts, error: decision.error, nextAttemptAt: null }, read, log);
  const nextAttemptAt = new Date(Date.now() + decision.retryInMs).toISOString();
  const retry: MailJobOutcome = { state: 'queued', attempts, error: decision.error, nextAttemptAt };
  if (!(await recordMailOutcome(job, retry, read))) return raced(log);
  logger.warn('e-mail attempt failed; retry scheduled', { ...log, attempt: attempts, error: decision.error });
  return { kind: 'retry', delayMs: decision.retryInMs };
}

/** An invoice's message, or why it is not sent (voided, paid for a reminder, the account gone). */
async function prepareInvoice(job: MailJob): Promise<PreparedMail> {
  const [invoice, account, logo] = await Promise.all([
    readInvoice(job.referenceCode),
    getAccount(job.companyId),
    getAccountLogo(job.companyId),
  ]);
  const read: Read = { invoice, account };
  const notToSend =
    reasonNotToSend(invoice, job.reminder !== undefined) ?? (account ? undefined : 'The account no longer exists.');
  if (notToSend) return { notToSend, read };
  return { raw: await buildInvoiceMessage(job, invoice!, account!, logo), read };
}

function mailFrom(): string {
  const from = loadConfig().mailFrom;
  // The send route refuses (501) on a stage without a sender, so a job here means the setting was removed since.
  if (!from) throw new Error('MAIL_FROM is not set: the mailer cannot send (docs/deploying.md "E-mail").');
  return from;
}

async function buildInvoiceMessage(job: MailJob, invoice: Invoice, account: Account, logo: Logo | undefined) {
  // The attachment is the invoice's PDF as GET /invoices/{ref}/pdf draws it: with its payments and credit notes.
  const [virtualAccount, payments] = await Promise.all([
    readVirtualAccount(account.companyId, invoice.details.clientId),
    readInvoiceReceipts(invoice.details.hostedToken),
  ]);
  const document = documentOf(invoice, account, { payments, virtualAccount }, logo);
  const content = job.receipt
    ? receiptEmailContent(document, job.receipt)
    : invoiceEmailContent(document, job.message, job.reminder);
  // The PDF engine loads on the first PDF this process renders (shared/render/engines.ts).
  const pdf = await renderInvoicePdf(document);
  // From: the stage's verified sender with the merchant's name; replies go to the merchant (docs/sending-invoices.md).
  const from = { name: account.name, address: mailFrom() };
  return buildDocumentMessage({ from, merchant: document.merchant, to: job.to, cc: job.cc, content, pdf });
}

async function finish(job: MailJob, outcome: MailJobOutcome, read: Read, log: Record<string, unknown>) {
  if (!(await recordMailOutcome(job, outcome, read))) return raced(log);
  if (outcome.state === 'sent') {
    countMailOutcome('MailSent');
    logger.info('invoice e-mail accepted by SES', { ...log, attempt: outcome.attempts });
    return { kind: 'delivered' } as const;
  }
  countMailOutcome('MailFailed');
  logger.warn('invoice e-mail failed', { ...log, attempt: outcome.attempts, error: outcome.error });
  return { kind: 'failed' } as const;
}

function raced(log: Record<string, unknown>): JobOutcome {
  // Another copy of this message, or a report from SES, recorded first: that record stands.
  logger.warn('mail job changed while this attempt ran; its record stands', log);
  return { kind: 'skipped', reason: 'the job changed concurrently' };
}

function skipped(log: Record<string, unknown>, reason: string): JobOutcome {
  logger.info('mail job skipped', { ...log, reason });
  return { kind: 'skipped', reason };
}

/** Rounds of "what the outcome was decided on changed meanwhile, read it again" before giving up (then retried). */
const MAX_ROUNDS = 5;

/**
 * Records `outcome` of `job` (as read). True when recorded; false when the job itself changed since it was read
 * (another copy of the queue message, or a report from SES, recorded first: that one stands). The first try records
 * it on the invoice and account `read` with the job, on condition that the invoice's balance is still the one read;
 * a later try reads them again.
 */
export async function recordMailOutcome(job: MailJob, outcome: MailJobOutcome, read?: Read): Promise<boolean> {
  const now = new Date();
  let known = read;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // A statement's job has no invoice (docs/receivables.md "One client: the statement").
    const invoice = job.statement ? undefined : known ? known.invoice : await readInvoice(job.referenceCode);
    const change = jobChangeAction(tableName(), {
      before: job,
      at: now.toISOString(),
      ...outcome,
    });
    const actions: TransactItem[] = [change];
    if (invoice && outcome.state !== 'queued' && describesJob(invoice.balance.mail, job.jobId))
      actions.push(...(await invoiceChange(job, invoice, outcome, { now, account: known?.account })));
    if (await commitUnlessChanged(actions)) return true;
    const current = await getMailJob(job.jobId);
    if (!current || current.state !== job.state || current.attempts !== job.attempts) return false;
    known = undefined;
  }
  throw new Error(`Mail job ${job.jobId}: its invoice kept changing; the attempt is retried.`);
}

/**
 * The invoice's new mail fields and the event that says so; its `data` is the invoice as the API shows it, with
 * `client` and `items` (docs/webhooks.md), on the account's today — on condition that its version is the one shown.
 */
async function invoiceChange(
  job: MailJob,
  invoice: Invoice,
  outcome: MailJobOutcome,
  at: { now: Date; account: Account | undefined },
): Promise<TransactItem[]> {
  const state = outcome.state as Exclude<MailJobState, 'queued'>;
  const mail: InvoiceMail = {
    status: state,
    jobId: job.jobId,
    sentAt: outcome.sentAt ?? invoice.balance.mail?.sentAt ?? null,
    error: outcome.error,
  };
  const timeZone = (at.account ?? (await getAccount(job.companyId)))?.timeZone ?? 'UTC';
  const data = invoiceView(
    { ...invoice, balance: { ...invoice.balance, mail } },
    { today: todayForOverdue(timeZone), withClient: true },
  );
  const context = { companyId: job.companyId, createdAt: formatTimestamp(at.now), newUlid: newEventUlid };
  const events = invoiceMailEvents(state, data, context);
  const { version } = invoice.balance;
  const wake = wakesOnFirstSend(invoice.balance, mail);
  const header = mailHeaderAction(tableName(), job.referenceCode, mail, { version, wake });
  return [header, ...eventPuts(events, at.now.getTime())];
}

export type NoticeOutcome = 'recorded' | 'unchanged' | 'unknown_job';

/** What is read of an EventBridge event from SES (deployed) or of the local SES server's copy of one. */
export type SesEvent = Partial<Pick<EventBridgeEvent<string, unknown>, 'source' | 'detail-type' | 'detail'>>;

/** An event from SES: recorded when it reports on a mail job, else ignored. */
export async function recordSesEvent(event: SesEvent): Promise<NoticeOutcome | 'ignored'> {
  const parsed = parseSesNotice(event);
  if (!parsed) {
    logger.info('SES event without an invoice mail job; ignored', { detail_type: event['detail-type'] });
    return 'ignored';
  }
  return recordMailNotice(parsed.jobId, parsed.notice);
}

export async function recordMailNotice(jobId: string, notice: SesNotice): Promise<NoticeOutcome> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const job = await getMailJob(jobId);
    if (!job) {
      logger.warn('SES report about an unknown mail job (expired?)', { job_id: jobId, kind: notice.kind });
      return 'unknown_job';
    }
    const change = decideNotice(job.state, notice);
    if (!change) return 'unchanged';
    const outcome = { state: change.state, attempts: job.attempts, error: change.error, nextAttemptAt: null };
    if (await recordMailOutcome(job, outcome)) {
      countMailOutcome(change.state === 'bounced' ? 'MailBounced' : 'MailFailed');
      logger.info('SES report recorded', { job_id: jobId, reference_code: job.referenceCode, kind: notice.kind });
      return 'recorded';
    }
  }
  throw new Error(`Mail job ${jobId} kept changing while its SES report was recorded; the report is retried.`);
}
