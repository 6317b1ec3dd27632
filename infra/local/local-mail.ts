/**
 * Invoice e-mail inside `npm start` (docs/sending-invoices.md "Delivery"): the local SES server the mail worker sends
 * through (the outbox runs the worker: outbox-runner.ts), every message kept under DATA_DIR/mail, its reports (the
 * mailbox simulator's bounces and complaints) going to the same handler as deployed (functions/mail-events), and the
 * settings the send route and the mailer read.
 */
import { join } from 'node:path';
import { handler as mailEventsHandler } from '../../functions/mail-events/handler.ts';
import { loadConfig, resetConfig } from '../../shared/config.ts';
import { resetMailSender } from '../../shared/store/mail.ts';
import type { BannerInput } from './banner.ts';
import { type LocalSes, startLocalSes } from './ses-server.ts';
/** The sender `npm start` uses unless MAIL_FROM is set (an empty MAIL_FROM turns sending off: 501). */
export const LOCAL_MAIL_FROM = 'invoices@example.com';

/** The environment the send route and the mailer read, for the local runtime (explicit settings win). */
export function useLocalMailSettings(sesEndpoint: string, env: NodeJS.ProcessEnv = process.env): void {
  env.SES_ENDPOINT = sesEndpoint;
  env.MAIL_FROM ??= LOCAL_MAIL_FROM;
  if (env === process.env) {
    resetConfig();
    resetMailSender();
  }
}

/** Invoice e-mail in `npm start`: the local SES server, and where its messages are read. */
export interface LocalMail {
  /** What the banner says about it. */
  banner: NonNullable<BannerInput['mail']>;
  stop(): Promise<void>;
}

export async function startLocalMail(options: {
  dataDir: string;
  sesPort: number;
  sesPortExplicit: boolean;
  log?: (message: string, error?: unknown) => void;
}): Promise<LocalMail> {
  const log = options.log ?? console.error;
  const ses = await startSes(options, log);
  useLocalMailSettings(ses.url);
  const mailDir = join(options.dataDir, 'mail');
  return { banner: { inboxUrl: ses.url, mailDir, from: loadConfig().mailFrom }, stop: () => ses.stop() };
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
