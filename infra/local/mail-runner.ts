/**
 * Invoice e-mail inside `npm start`, with the code that runs deployed (docs/sending-invoices.md "Delivery"): the mail
 * outbox (outbox-runner.ts: stream → mail dispatcher → local mail queue → mailer), which sends through the local SES
 * server and reschedules throttled attempts through the queue. Queue and stream position live under
 * DATA_DIR/mail-queue, so a job queued before a crash is sent after the restart. SES's reports come from the local SES server
 * (infra/local/ses-server.ts) to the mail-events handler.
 */
import { join } from 'node:path';
import { handler as mailEventsHandler } from '../../functions/mail-events/handler.ts';
import { worker } from '../../functions/mailer/handler.ts';
import { createDispatchHandler } from '../../functions/outbox-dispatch/handler.ts';
import { loadConfig, resetConfig } from '../../shared/config.ts';
import type { FilterPattern } from '../../shared/domain/filter-pattern.ts';
import { resetMailSender } from '../../shared/store/mail-sender.ts';
import { jobMessageBody, streamFilterOf } from '../../shared/store/outbox.ts';
import type { BannerInput } from './banner.ts';
import { type OutboxRunner, startOutboxRunner } from './outbox-runner.ts';
import { type LocalSes, startLocalSes } from './ses-server.ts';

/** Like the deployed mail queue (infra/mail.ts): every attempt of the schedule, plus room for a few crashed ones. */
export const LOCAL_MAIL_QUEUE = {
  visibilityTimeoutMs: 60_000,
  maxReceiveCount: 12,
  messageBody: (id: string) => jobMessageBody('mail', id),
  queueArn: 'arn:aws:sqs:local:000000000000:invoice-mail',
} as const;

/** The sender `npm start` uses unless MAIL_FROM is set (an empty MAIL_FROM turns sending off: 501). */
export const LOCAL_MAIL_FROM = 'invoices@example.com';

export type MailRunner = OutboxRunner;

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
  log: (message: string, error?: unknown) => void;
}): MailRunner {
  return startOutboxRunner({
    ...options,
    directory: join(options.dataDir, 'mail-queue'),
    queueOptions: LOCAL_MAIL_QUEUE,
    filter: streamFilterOf(['mail']) as unknown as FilterPattern,
    dispatcher: (queue) => createDispatchHandler(() => queue()),
    worker: (queue) => (event) => worker.consume(event, { queue: queue() }),
    messages: {
      batchFailed: 'Invoice e-mail batch failed; it is retried after the visibility timeout.',
      streamFailed: 'Reading the table stream for mail jobs failed; retrying.',
    },
  });
}

/** Invoice e-mail in `npm start`: the local SES server and the mail runner over it, stopped in that order's reverse. */
export interface LocalMail {
  /** What the banner says about it. */
  banner: NonNullable<BannerInput['mail']>;
  stop(): Promise<void>;
}

export async function startLocalMail(options: {
  endpoint: string;
  tableName: string;
  dataDir: string;
  sesPort: number;
  sesPortExplicit: boolean;
  log?: (message: string, error?: unknown) => void;
}): Promise<LocalMail> {
  const log = options.log ?? console.error;
  const ses = await startSes(options, log);
  useLocalMailSettings(ses.url);
  const runner = startMailRunner({ ...options, log });
  const mailDir = join(options.dataDir, 'mail');
  return {
    banner: { inboxUrl: ses.url, mailDir, from: loadConfig().mailFrom },
    async stop() {
      await runner.stop();
      await ses.stop();
    },
  };
}

/**
 * The local SES server on SES_PORT (default 8005; when that is taken and SES_PORT was not set, a free port), its
 * reports (bounce, complaint) going to the same handler as deployed (functions/mail-events).
 */
async function startSes(
  settings: { dataDir: string; sesPort: number; sesPortExplicit: boolean },
  log: (message: string, error?: unknown) => void,
): Promise<LocalSes> {
  const options = { mailDir: join(settings.dataDir, 'mail'), onNotice: mailEventsHandler, log };
  try {
    return await startLocalSes({ ...options, port: settings.sesPort });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    if (settings.sesPortExplicit)
      throw new Error(
        `SES_PORT ${settings.sesPort} is already in use. Stop what uses it, or set SES_PORT to a free port.`,
      );
    return startLocalSes({ ...options, port: 0 });
  }
}
