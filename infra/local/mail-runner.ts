/**
 * Invoice e-mail inside `npm start`, with the code that runs deployed (docs/sending-invoices.md "Delivery"): the
 * stream poller feeds the mail dispatcher (filtered by MAIL_STREAM_FILTER_PATTERN, like the event source mapping), the
 * dispatcher fills the local mail queue, and the queue consumer feeds the mailer, which sends through the local SES
 * server and reschedules throttled attempts through the queue. Queue and stream position live under DATA_DIR/mail-queue,
 * so a job queued before a crash is sent after the restart. SES's reports come from the local SES server
 * (infra/local/ses-server.ts) to the mail-events handler.
 */
import { join } from 'node:path';
import { createMailDispatchHandler } from '../../functions/mail-dispatch/handler.ts';
import { createMailerHandler } from '../../functions/mailer/handler.ts';
import { resetConfig } from '../../shared/config.ts';
import type { FilterPattern } from '../../shared/domain/filter-pattern.ts';
import type { MailerPorts } from '../../shared/services/deliver-mail-job.ts';
import { MAIL_STREAM_FILTER_PATTERN } from '../../shared/store/mail-jobs.ts';
import { mailMessageBody } from '../../shared/store/mail-queue.ts';
import { resetMailSender } from '../../shared/store/mail-sender.ts';
import { startStreamPoller } from './stream-poller.ts';
import { LocalDeliveryQueue, startQueueConsumer } from './webhook-queue.ts';

/** Like the deployed mail queue (infra/mail.ts): every attempt of the schedule, plus room for a few crashed ones. */
export const LOCAL_MAIL_QUEUE = {
  visibilityTimeoutMs: 60_000,
  maxReceiveCount: 12,
  messageBody: mailMessageBody,
  queueArn: 'arn:aws:sqs:local:000000000000:invoice-mail',
} as const;

/** The sender `npm start` uses unless MAIL_FROM is set (an empty MAIL_FROM turns sending off: 501). */
export const LOCAL_MAIL_FROM = 'invoices@example.com';

export interface MailRunner {
  queue: LocalDeliveryQueue;
  stop(): Promise<void>;
}

/** The environment the send route and the mailer read, for the local runtime (explicit settings win). */
export function useLocalMailSettings(sesEndpoint: string, env: NodeJS.ProcessEnv = process.env): void {
  env.SES_ENDPOINT = sesEndpoint;
  env.MAIL_FROM ??= LOCAL_MAIL_FROM;
  if (env === process.env) {
    resetConfig();
    resetMailSender();
  }
}

export function startMailRunner(options: {
  endpoint: string;
  tableName: string;
  dataDir: string;
  ports: () => MailerPorts;
  log: (message: string, error?: unknown) => void;
}): MailRunner {
  const directory = join(options.dataDir, 'mail-queue');
  const queue = new LocalDeliveryQueue(join(directory, 'queue.json'), LOCAL_MAIL_QUEUE);
  const dispatch = createMailDispatchHandler(() => queue);
  const mailer = createMailerHandler(() => queue, options.ports);
  const consumer = startQueueConsumer(queue, (event) => mailer(event), {
    onError: (error) => options.log('Invoice e-mail batch failed; it is retried after the visibility timeout.', error),
  });
  const poller = startStreamPoller({
    endpoint: options.endpoint,
    tableName: options.tableName,
    checkpointFile: join(directory, 'stream-position.json'),
    filter: MAIL_STREAM_FILTER_PATTERN as unknown as FilterPattern,
    handle: dispatch,
    onError: (error) => options.log('Reading the table stream for mail jobs failed; retrying.', error),
  });
  return {
    queue,
    async stop() {
      await Promise.all([poller.stop(), consumer.stop()]);
    },
  };
}
