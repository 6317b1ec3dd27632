/**
 * EventBridge-fed (no HTTP route): SES's reports about invoice e-mails — bounces, complaints and rejects — from the
 * stage's configuration set (infra/mail.ts), recorded on the mail job and, for the latest send, on the invoice with
 * `invoice.delivery_failed`. A thrown error makes Lambda retry the event, then send it to the dead-letter queue.
 * `npm start`'s local SES server calls the same handler. docs/sending-invoices.md "Bounces and complaints".
 */
import { recordSesNotice } from '../../shared/http/mailer.ts';
import { logger } from '../../shared/observability.ts';
import type { NoticeOutcome } from '../../shared/services/record-mail-notice.ts';
import { parseSesNotice, type SesEventBridgeEvent } from '../../shared/store/ses-events.ts';

export async function handler(event: SesEventBridgeEvent): Promise<NoticeOutcome | 'ignored'> {
  const parsed = parseSesNotice(event);
  if (!parsed) {
    logger.info('SES event without an invoice mail job; ignored', { detail_type: event['detail-type'] });
    return 'ignored';
  }
  return recordSesNotice(parsed.jobId, parsed.notice);
}
