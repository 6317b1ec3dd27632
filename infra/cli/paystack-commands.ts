/**
 * `paystack:events` (docs/getting-paid-online.md "paystack:events"): what an account's Paystack integration did, newest
 * first — each webhook received and what its processing came to, each refund job and what Paystack said to it, and
 * each charge of a saved card — one JSON line each, as `webhook:deliveries` lists deliveries.
 */
import { formatKobo } from '../../shared/domain/money.ts';
import { listProviderEvents, type ProviderEvent } from '../../shared/store/provider-events.ts';
import { listRefundJobs, type RefundJobStatus } from '../../shared/store/refund-jobs.ts';
import { defineCommand } from './command.ts';
import { printedTime } from './printed-time.ts';
import { COMPANY_ID, companyId, positiveInteger } from './validate.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

/** One line of the listing, with the ULID of its id that orders it. */
interface Line {
  order: string;
  line: Record<string, unknown>;
}

/** Ids are a prefix and a ULID (`pse_…`, `rfj_…`): the ULID orders them by time across kinds. */
const ulidOf = (id: string): string => id.slice(id.indexOf('_') + 1);

function eventLine(event: ProviderEvent): Line {
  return {
    order: ulidOf(event.eventId),
    line: {
      kind: 'event',
      id: event.eventId,
      type: event.eventType,
      reference: event.reference ?? null,
      received_at: printedTime(event.receivedAt),
      state: event.state,
      outcome: event.outcome ?? null,
      payment_id: event.paymentId ?? null,
      attempts: event.attempts,
      next_attempt_at: event.state === 'retrying' ? printedTime(event.nextAttemptAt ?? null) : null,
    },
  };
}

function refundLine(job: RefundJobStatus): Line {
  const outcome =
    job.state === 'issued'
      ? `refund ${job.refundId} ${job.refundStatus}`
      : job.state === 'failed'
        ? `failed: ${job.lastError ?? ''}`
        : job.lastError === undefined
          ? 'waiting for its first attempt'
          : `retrying: ${job.lastError}`;
  return {
    order: ulidOf(job.jobId),
    line: {
      kind: 'refund',
      id: job.jobId,
      type: `refund.${job.reason}`,
      reference: job.reference,
      received_at: printedTime(job.createdAt),
      state: job.state,
      outcome,
      payment_id: job.paymentId,
      attempts: job.attempts,
      next_attempt_at: job.state === 'queued' ? printedTime(job.nextAttemptAt ?? null) : null,
      amount: formatKobo(job.amountKobo),
      refund_id: job.refundId ?? null,
    },
  };
}

export const paystackEvents = defineCommand({
  name: 'paystack:events',
  summary:
    "list what the account's Paystack integration did, newest first: webhooks received and what processing did, " +
    'refunds and charges of saved cards',
  options: {
    'company-id': COMPANY_ID,
    limit: {
      type: 'string',
      placeholder: 'N',
      description: `how many lines (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`,
    },
  },
  prints:
    'one JSON line each: kind (event | refund | charge), id, type, reference, received_at, state, outcome, ' +
    'payment_id, attempts, next_attempt_at (while a retry waits); refunds add amount and refund_id.',
  input: (values) => ({
    companyId: companyId(values),
    limit: values.limit === undefined ? DEFAULT_LIMIT : positiveInteger(values.limit, 'limit', MAX_LIMIT),
  }),
  async run(input, output) {
    const [events, refunds] = await Promise.all([
      listProviderEvents(input.companyId, input.limit),
      listRefundJobs(input.companyId, input.limit),
    ]);
    const lines = [...events.map(eventLine), ...refunds.map(refundLine)];
    lines.sort((a, b) => (a.order < b.order ? 1 : a.order > b.order ? -1 : 0));
    for (const { line } of lines.slice(0, input.limit)) output.line(line);
  },
});

export const paystackCommands = [paystackEvents];
