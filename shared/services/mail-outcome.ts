/**
 * Records what happened to a mail job (an attempt, or a report from SES) in one transaction: the job itself, on
 * condition that it is still in the state it was read in; and — only while the invoice's mail fields still describe
 * this job, its latest send — those fields and the webhook event of the change (docs/sending-invoices.md "Delivery").
 * A report about an older send therefore changes that send's job and nothing the invoice says about the newer one.
 */
import { todayForOverdue } from '../clock.ts';
import { formatTimestamp } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { describesJob, type InvoiceMail, type MailJobState } from '../domain/invoice-mail.ts';
import { invoiceMailEvents } from '../domain/webhook-events.ts';
import { invoiceView } from '../representation/views.ts';
import { getAccount } from '../store/accounts.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { loadInvoices, mailHeaderAction } from '../store/invoices.ts';
import { commitMailChange, getMailJob, jobChangeAction, type MailJob } from '../store/mail-jobs.ts';
import type { TransactItem } from '../store/transaction.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';

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

/** Rounds of "the invoice changed meanwhile, read it again" before giving up (the message is then retried). */
const MAX_ROUNDS = 5;

/**
 * Records `outcome` of `job` (as read). True when recorded; false when the job itself changed since it was read
 * (another copy of the queue message, or a report from SES, recorded first: that one stands).
 */
export async function recordMailOutcome(job: MailJob, outcome: MailJobOutcome): Promise<boolean> {
  const now = new Date();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const invoice = (await loadInvoices([job.referenceCode])).get(job.referenceCode);
    const actions: TransactItem[] = [
      jobChangeAction(tableName(), {
        before: job,
        state: outcome.state,
        attempts: outcome.attempts,
        at: now.toISOString(),
        error: outcome.error,
        ...(outcome.nextAttemptAt !== undefined ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
        ...(outcome.sesMessageId !== undefined ? { sesMessageId: outcome.sesMessageId } : {}),
        ...(outcome.sentAt !== undefined ? { sentAt: outcome.sentAt } : {}),
      }),
    ];
    if (invoice && outcome.state !== 'queued' && describesJob(invoice.balance.mail, job.jobId))
      actions.push(...(await invoiceChange(job, invoice, outcome, now)));
    if (await commitMailChange(actions)) return true;
    const current = await getMailJob(job.jobId);
    if (!current || current.state !== job.state || current.attempts !== job.attempts) return false;
  }
  throw new Error(`Mail job ${job.jobId}: its invoice kept changing; the attempt is retried.`);
}

/**
 * The invoice's new mail fields and the event that says so; its `data` is the invoice as the API shows it, with
 * `client` and `items` (docs/webhooks.md), on the account's today.
 */
async function invoiceChange(
  job: MailJob,
  invoice: Invoice,
  outcome: MailJobOutcome,
  now: Date,
): Promise<TransactItem[]> {
  const state = outcome.state as Exclude<MailJobState, 'queued'>;
  const mail: InvoiceMail = {
    status: state,
    jobId: job.jobId,
    sentAt: outcome.sentAt ?? invoice.balance.mail?.sentAt ?? null,
    error: outcome.error,
  };
  const timeZone = (await getAccount(job.companyId))?.timeZone ?? 'UTC';
  const today = todayForOverdue(timeZone);
  const data = invoiceView({ ...invoice, balance: { ...invoice.balance, mail } }, { today, withClient: true });
  const createdAt = formatTimestamp(now);
  const events = invoiceMailEvents(state, data, { companyId: job.companyId, createdAt, newUlid: newEventUlid });
  return [mailHeaderAction(tableName(), job.referenceCode, mail), ...eventPuts(events, now.getTime())];
}
