/** `mail:deliveries` (docs/sending-invoices.md "Seeing what happened"): an account's recent invoice e-mails. */
import { listMailJobs } from '../../shared/store/mail.ts';
import { defineCommand } from './command.ts';
import { printedTime } from './printed-time.ts';
import { COMPANY_ID, companyId, positiveInteger } from './validate.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

export const mailDeliveries = defineCommand({
  name: 'mail:deliveries',
  summary: "list the account's recent invoice e-mails (one per send) and what became of each, newest first",
  options: {
    'company-id': COMPANY_ID,
    limit: {
      type: 'string',
      placeholder: 'N',
      description: `how many (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`,
    },
  },
  prints:
    'one JSON line per send: job_id, reference_code, to, cc, created_at, state (queued | sent | failed | bounced), ' +
    'attempts, last_error, last_attempt_at, next_attempt_at (while a retry waits), sent_at, ses_message_id, ' +
    'reminder_offset (a reminder of the schedule: its offset; null for a send).',
  input: (values) => ({
    companyId: companyId(values),
    limit: values.limit === undefined ? DEFAULT_LIMIT : positiveInteger(values.limit, 'limit', MAX_LIMIT),
  }),
  async run(input, output) {
    for (const job of await listMailJobs(input.companyId, input.limit)) {
      output.line({
        job_id: job.jobId,
        reference_code: job.referenceCode,
        to: job.to,
        cc: job.cc,
        created_at: printedTime(job.createdAt),
        state: job.state,
        attempts: job.attempts,
        last_error: job.lastError,
        last_attempt_at: printedTime(job.lastAttemptAt),
        next_attempt_at: job.state === 'queued' ? printedTime(job.nextAttemptAt) : null,
        sent_at: printedTime(job.sentAt),
        ses_message_id: job.sesMessageId,
        reminder_offset: job.reminder?.offset ?? null,
      });
    }
  },
});

export const mailCommands = [mailDeliveries];
