/**
 * A report from SES about an invoice e-mail it accepted (docs/sending-invoices.md "Bounces and complaints"): a bounce
 * or a complaint makes the job `bounced`, a reject (SES found a virus after accepting) `failed`; the invoice follows
 * when the job is its latest send, with `invoice.delivery_failed`. Deployed, the configuration set's EventBridge
 * destination feeds functions/mail-events; `npm start`'s local SES server feeds the same handler.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { decideNotice, type SesNotice } from '../domain/invoice-mail.ts';
import { countMailOutcome, logger } from '../observability.ts';
import { getMailJob } from '../store/mail-jobs.ts';
import { parseSesNotice } from '../store/ses-events.ts';
import { recordMailOutcome } from './mail-outcome.ts';

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

/** Rounds of "the job changed meanwhile (an attempt was recorded), read it again". */
const MAX_ROUNDS = 5;

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
