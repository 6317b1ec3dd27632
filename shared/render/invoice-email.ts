/**
 * What the client reads in the invoice e-mail (docs/sending-invoices.md "The e-mail"), pure: the subject, a plain-text
 * body and an HTML body with the same content — who it is from, the invoice number, amount due and due date, the
 * merchant's optional note and the link to the hosted page. The PDF is attached by the mailer. Everything a user typed
 * is escaped in the HTML; the HTML has no script, no remote image and no style sheet (mail clients strip them).
 */

export interface InvoiceEmailInput {
  /** Who the invoice is from: the merchant's name. */
  merchantName: string;
  /** The client's name as the invoice shows it. */
  clientName: string;
  /** The invoice number (its `id`) and reference code. */
  invoiceNumber: number;
  referenceCode: string;
  /** ISO 4217 code, e.g. NGN. */
  currency: string;
  totalKobo: number;
  amountDueKobo: number;
  /** YYYY-MM-DD. */
  dueDate: string;
  /** The hosted invoice page, when the stage serves one. */
  hostedUrl?: string | undefined;
  /** The merchant's note to the client (at most 1,000 characters). */
  message?: string | undefined;
}

export interface InvoiceEmailContent {
  subject: string;
  text: string;
  html: string;
  /** The attachment's file name: invoice-<reference_code>.pdf (as the PDF route names it). */
  pdfFileName: string;
}

const SYMBOLS: Record<string, string> = { NGN: '₦', USD: '$', GBP: '£', EUR: '€', GHS: 'GH₵', KES: 'KSh', ZAR: 'R' };

/** `₦1,234,567.89`; a currency without a known sign is written before the amount (`XOF 1,000.00`). */
export function formatMoney(kobo: number, currency: string): string {
  const sign = kobo < 0 ? '-' : '';
  const digits = String(Math.abs(kobo)).padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = SYMBOLS[currency];
  const amount = `${whole}.${digits.slice(-2)}`;
  return symbol ? `${sign}${symbol}${amount}` : `${sign}${currency} ${amount}`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** One line for a subject: no line breaks (a header cannot carry them), at most 200 characters. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 200);

export function invoiceEmailContent(input: InvoiceEmailInput): InvoiceEmailContent {
  const due = formatMoney(input.amountDueKobo, input.currency);
  const total = formatMoney(input.totalKobo, input.currency);
  const subject = oneLine(`Invoice ${input.invoiceNumber} from ${input.merchantName}: ${due} due ${input.dueDate}`);
  const facts: [string, string][] = [
    ['Invoice number', String(input.invoiceNumber)],
    ['Reference', input.referenceCode],
    ['Total', total],
    ['Amount due', due],
    ['Due date', input.dueDate],
  ];
  return {
    subject,
    text: plainText(input, facts),
    html: html(input, facts),
    pdfFileName: `invoice-${input.referenceCode}.pdf`,
  };
}

function plainText(input: InvoiceEmailInput, facts: [string, string][]): string {
  const lines = [`Hello ${input.clientName},`, '', `${input.merchantName} has sent you an invoice.`, ''];
  if (input.message) lines.push(input.message, '');
  for (const [label, value] of facts) lines.push(`${label}: ${value}`);
  lines.push('');
  if (input.hostedUrl) lines.push(`View the invoice online: ${input.hostedUrl}`, '');
  lines.push('The invoice is attached as a PDF.', '', `${input.merchantName}`);
  return `${lines.join('\n')}\n`;
}

function html(input: InvoiceEmailInput, facts: [string, string][]): string {
  const e = escapeHtml;
  const message = input.message
    ? `<p style="white-space:pre-line;border-left:3px solid #ccc;padding-left:12px">${e(input.message)}</p>`
    : '';
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0">${e(label)}</th><td>${e(value)}</td></tr>`,
    )
    .join('');
  const link = input.hostedUrl ? `<p><a href="${e(input.hostedUrl)}">View the invoice online</a></p>` : '';
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${e(oneLine(`Invoice ${input.invoiceNumber}`))}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px">',
    `<p>Hello ${e(input.clientName)},</p>`,
    `<p>${e(input.merchantName)} has sent you an invoice.</p>`,
    message,
    `<table role="presentation" style="border-collapse:collapse">${rows}</table>`,
    link,
    '<p>The invoice is attached as a PDF.</p>',
    `<p>${e(input.merchantName)}</p>`,
    '</body></html>',
  ].join('\n');
}
