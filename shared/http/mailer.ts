/**
 * The mailer and SES's reports with the API's view of an invoice as their events' `data` (docs/webhooks.md: the
 * invoice with `client` and `items`), and the invoice's PDF: what the deployed functions and `npm start` run.
 */
import type { SesNotice } from '../domain/invoice-mail.ts';
import { hostedUrlOrNull } from '../hosted-url.ts';
import { renderInvoicePdf } from '../render/invoice-pdf.ts';
import type { MailerPorts } from '../services/deliver-mail-job.ts';
import type { RenderInvoice } from '../services/mail-outcome.ts';
import { type NoticeOutcome, recordMailNotice } from '../services/record-mail-notice.ts';
import { invoiceView } from './views.ts';

export const renderInvoiceData: RenderInvoice = (invoice, today) => invoiceView(invoice, { today, withClient: true });

/** The mailer's renderer, views and links (the deployed mailer and `npm start` use these). */
export const mailerPorts: MailerPorts = {
  renderPdf: renderInvoicePdf,
  render: renderInvoiceData,
  hostedUrl: (invoice) => hostedUrlOrNull(invoice.details.hostedToken),
};

export function recordSesNotice(jobId: string, notice: SesNotice): Promise<NoticeOutcome> {
  return recordMailNotice(jobId, notice, renderInvoiceData);
}
