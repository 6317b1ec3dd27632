/**
 * One attempt of one mail job (docs/sending-invoices.md "Delivery"): read the job, the invoice and the merchant,
 * render the PDF, build one MIME message, send it with SESv2 and record what SES answered: the deliver function of the
 * outbox's mail kind (store/outbox.ts), which its worker (functions/mailer/handler.ts) calls once per queue message,
 * delivered meaning SES accepted the message. At least once: a crash
 * between SES accepting and the status write leaves the job queued, and the next attempt sends the e-mail again.
 * Logs carry the job, invoice and company, never an address, the note or the message.
 */
import { loadConfig } from '../config.ts';
import { formatTimestamp } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { decideAttempt, reasonNotToSend } from '../domain/invoice-mail.ts';
import { countMailOutcome, logger } from '../observability.ts';
import { buildMimeMessage } from '../outbound/mime-message.ts';
import { invoiceEmailContent } from '../render/invoice-email.ts';
import { renderInvoicePdf } from '../render/invoice-pdf.ts';
import { type Account, getAccount } from '../store/accounts.ts';
import { loadInvoices } from '../store/invoices.ts';
import { getMailJob, type MailJob } from '../store/mail-jobs.ts';
import { sendRawMail } from '../store/mail-sender.ts';
import { documentOf } from './invoice-document.ts';
import { type MailJobOutcome, recordMailOutcome } from './mail-outcome.ts';
import type { JobOutcome } from './outbox.ts';

type MailDeliveryOutcome = JobOutcome;

export async function deliverMailJob(jobId: string): Promise<MailDeliveryOutcome> {
  const job = await getMailJob(jobId);
  if (!job) return skipped({ job_id: jobId }, 'unknown job');
  const log = { job_id: job.jobId, reference_code: job.referenceCode, company_id: job.companyId };
  if (job.state !== 'queued') return skipped(log, `already ${job.state}`);
  const invoice = (await loadInvoices([job.referenceCode])).get(job.referenceCode);
  const account = await getAccount(job.companyId);
  const notToSend =
    reasonNotToSend(invoice, job.reminder !== undefined) ?? (account ? undefined : 'The account no longer exists.');
  if (notToSend) return finish(job, { state: 'failed', attempts: job.attempts, error: notToSend }, log);

  const raw = await buildInvoiceMessage(job, invoice!, account!);
  const result = await sendRawMail({ from: mailFrom(), to: job.to, cc: job.cc, raw, jobId: job.jobId });
  const decision = decideAttempt(result, job.attempts, loadConfig().mailRetryBaseMs);
  const attempts = job.attempts + 1;
  if (decision.state === 'sent') {
    const sentAt = formatTimestamp(new Date());
    const sent = {
      state: 'sent' as const,
      attempts,
      error: null,
      nextAttemptAt: null,
      sesMessageId: decision.messageId,
    };
    return finish(job, { ...sent, sentAt }, log);
  }
  if (decision.state === 'failed')
    return finish(job, { state: 'failed', attempts, error: decision.error, nextAttemptAt: null }, log);
  const nextAttemptAt = new Date(Date.now() + decision.retryInMs).toISOString();
  const retry: MailJobOutcome = { state: 'queued', attempts, error: decision.error, nextAttemptAt };
  if (!(await recordMailOutcome(job, retry))) return raced(log);
  logger.warn('invoice e-mail attempt failed; retry scheduled', { ...log, attempt: attempts, error: decision.error });
  return { kind: 'retry', delayMs: decision.retryInMs };
}

function mailFrom(): string {
  const from = loadConfig().mailFrom;
  // The send route refuses (501) on a stage without a sender, so a job here means the setting was removed since.
  if (!from) throw new Error('MAIL_FROM is not set: the mailer cannot send (docs/deploying.md "E-mail").');
  return from;
}

async function buildInvoiceMessage(job: MailJob, invoice: Invoice, account: Account) {
  const document = documentOf(invoice, account);
  const content = invoiceEmailContent(document, job.message, job.reminder);
  // The PDF engine loads on the first PDF this process renders (shared/render/invoice-pdf.ts).
  const pdf = await renderInvoicePdf(document);
  return buildMimeMessage({
    // From: the stage's verified sender with the merchant's name; replies go to the merchant (docs/sending-invoices.md).
    from: { name: account.name, address: mailFrom() },
    replyTo: document.merchant.email,
    to: job.to,
    cc: job.cc,
    subject: content.subject,
    text: content.text,
    html: content.html,
    attachment: { fileName: content.pdfFileName, contentType: 'application/pdf', content: pdf },
  });
}

async function finish(
  job: MailJob,
  outcome: MailJobOutcome,
  log: Record<string, unknown>,
): Promise<MailDeliveryOutcome> {
  if (!(await recordMailOutcome(job, outcome))) return raced(log);
  if (outcome.state === 'sent') {
    countMailOutcome('MailSent');
    logger.info('invoice e-mail accepted by SES', { ...log, attempt: outcome.attempts });
    return { kind: 'delivered' };
  }
  countMailOutcome('MailFailed');
  logger.warn('invoice e-mail failed', { ...log, attempt: outcome.attempts, error: outcome.error });
  return { kind: 'failed' };
}

function raced(log: Record<string, unknown>): MailDeliveryOutcome {
  // Another copy of this message, or a report from SES, recorded first: that record stands.
  logger.warn('mail job changed while this attempt ran; its record stands', log);
  return { kind: 'skipped', reason: 'the job changed concurrently' };
}

function skipped(log: Record<string, unknown>, reason: string): MailDeliveryOutcome {
  logger.info('mail job skipped', { ...log, reason });
  return { kind: 'skipped', reason };
}
