/**
 * What the client reads in a payment's receipt e-mail (docs/getting-paid-online.md "Receipt e-mails"), pure: the
 * amount received, the day, the channel, what is still due after it and the link to the hosted page, rendered from
 * the invoice document the page, the PDF and the invoice e-mail are rendered from. The invoice's PDF is attached by
 * the mailer, as with the invoice e-mail. Everything a user typed is escaped in the HTML (no script, no style sheet).
 */
import { fromEpochSeconds } from '../domain/dates.ts';
import type { ReceiptFacts } from '../domain/invoice-mail.ts';
import { channelLabel, type InvoiceDocument, type LabelledValue, showDate } from './invoice-document.ts';
import type { InvoiceEmailContent } from './invoice-email.ts';
import { escapeHtml } from './invoice-page.ts';
import { formatMoney } from './money-format.ts';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 200);

export function receiptEmailContent(document: InvoiceDocument, receipt: ReceiptFacts): InvoiceEmailContent {
  const money = (kobo: number) => formatMoney(kobo, document.currency);
  const amount = money(receipt.amountKobo);
  const subject = oneLine(`Receipt: ${amount} received for invoice ${document.number} from ${document.merchant.name}`);
  const intro = `${document.merchant.name} has received your payment of ${amount}. Thank you.`;
  const facts: LabelledValue[] = [
    { label: 'Amount received', value: amount },
    { label: 'Date', value: showDate(fromEpochSeconds(receipt.transactionDate)).text },
    { label: 'Paid by', value: channelLabel(receipt.channel) },
    { label: 'Invoice number', value: document.number },
    { label: 'Reference', value: document.referenceCode },
    { label: 'Invoice total', value: document.total },
    { label: 'Still due', value: receipt.amountDueKobo > 0 ? money(receipt.amountDueKobo) : 'Nothing: paid in full' },
  ];
  return {
    subject,
    text: plainText(document, facts, intro),
    html: html(document, facts, intro),
    pdfFileName: `invoice-${document.referenceCode}.pdf`,
  };
}

function plainText(document: InvoiceDocument, facts: LabelledValue[], intro: string): string {
  const lines = [`Hello ${document.client.name},`, '', intro, ''];
  for (const { label, value } of facts) lines.push(`${label}: ${value}`);
  lines.push('');
  if (document.hostedUrl) lines.push(`View the invoice online: ${document.hostedUrl}`, '');
  lines.push('The invoice is attached as a PDF.', '', document.merchant.name);
  return `${lines.join('\n')}\n`;
}

const e = escapeHtml;
const cell = 'style="padding:4px 12px 4px 0;text-align:left;vertical-align:top"';

function html(document: InvoiceDocument, facts: LabelledValue[], intro: string): string {
  const rows = facts.map(({ label, value }) => `<tr><th ${cell}>${e(label)}</th><td ${cell}>${e(value)}</td></tr>`);
  const link = document.hostedUrl ? `<p><a href="${e(document.hostedUrl)}">View the invoice online</a></p>` : '';
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${e(`Receipt for invoice ${document.number}`)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px">',
    `<p>Hello ${e(document.client.name)},</p>`,
    `<p>${e(intro)}</p>`,
    `<table role="presentation">${rows.join('')}</table>`,
    link,
    '<p>The invoice is attached as a PDF.</p>',
    `<p>${e(document.merchant.name)}</p>`,
    '</body></html>',
  ].join('\n');
}
