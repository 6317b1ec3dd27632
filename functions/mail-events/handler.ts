/**
 * EventBridge-fed (no HTTP route): SES's reports about invoice e-mails — bounces, complaints and rejects — from the
 * stage's configuration set (infra/mail.ts), recorded on the mail job and, for the latest send, on the invoice with
 * `invoice.delivery_failed`. A thrown error makes Lambda retry the event, then send it to the dead-letter queue.
 * `npm start`'s local SES server calls the same handler. docs/sending-invoices.md "Bounces and complaints".
 */
import { type NoticeOutcome, recordSesEvent, type SesEvent } from '../../shared/services/mail-delivery.ts';

export const handler = (event: SesEvent): Promise<NoticeOutcome | 'ignored'> => recordSesEvent(event);
