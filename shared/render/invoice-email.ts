/**
 * What the client reads in the invoice e-mail (docs/sending-invoices.md "The e-mail"), pure: the subject, a plain-text
 * body and an HTML body with the same content, rendered from the invoice document the page and the PDF are rendered
 * from (./invoice-document.ts), so the three never disagree — who it is from, the invoice number, the items, the total
 * and amount due, the due date, the merchant's optional note, how to pay and the link to the hosted page. The PDF is
 * attached by the mailer. Everything a user typed is escaped in the HTML, which has no script, no remote image and no
 * style sheet (mail clients strip them; inline styles only).
 */
import { reminderDueText } from '../domain/reminders.ts';
import type { InvoiceDocument, LabelledValue } from './invoice-document.ts';
import { escapeHtml } from './invoice-page.ts';

export interface InvoiceEmailContent {
  subject: string;
  text: string;
  html: string;
  /** The attachment's file name: invoice-<reference_code>.pdf (as the PDF routes name it). */
  pdfFileName: string;
}

/** One line for a subject: no line breaks (a header cannot carry them), at most 200 characters. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 200);

/**
 * `message` is the merchant's note to the client (at most 1,000 characters), shown above the invoice. A `reminder`
 * (docs/receivables.md "Reminders") says in its subject and first line how the due date stands: due in N days, due
 * today or overdue by N days (`daysFromDue`: the days from the due date when the reminder was queued).
 */
export function invoiceEmailContent(
  document: InvoiceDocument,
  message?: string,
  reminder?: { daysFromDue: number },
): InvoiceEmailContent {
  const about = `Invoice ${document.number} from ${document.merchant.name}`;
  const subject = oneLine(
    reminder
      ? `Reminder: ${about} is ${reminderDueText(reminder.daysFromDue)} (${document.amountDue} due)`
      : `${about}: ${document.amountDue} due ${document.due.text}`,
  );
  const intro = reminder
    ? `A reminder from ${document.merchant.name}: this invoice is ${reminderDueText(reminder.daysFromDue)}.`
    : `${document.merchant.name} has sent you an invoice.`;
  const facts: LabelledValue[] = [
    { label: 'Invoice number', value: document.number },
    { label: 'Reference', value: document.referenceCode },
    { label: 'Total', value: document.total },
    { label: 'Amount paid', value: document.amountPaid },
    { label: 'Amount due', value: document.amountDue },
    { label: 'Due date', value: document.due.text },
    { label: 'Status', value: document.statusLabel },
  ];
  return {
    subject,
    text: plainText(document, facts, message, intro),
    html: html(document, facts, message, intro),
    pdfFileName: `invoice-${document.referenceCode}.pdf`,
  };
}

function plainText(document: InvoiceDocument, facts: LabelledValue[], message: string | undefined, intro: string) {
  const lines = [`Hello ${document.client.name},`, '', intro, ''];
  if (message) lines.push(message, '');
  for (const { label, value } of facts) lines.push(`${label}: ${value}`);
  lines.push('', 'Items:');
  for (const line of document.lines)
    lines.push(`- ${line.name} × ${line.quantity} at ${line.unitCost}: ${line.lineTotal}`);
  if (document.paymentInstructions.length > 0 || document.payByTransfer) {
    lines.push('', 'How to pay:');
    if (document.payByTransfer) lines.push(document.payByTransfer);
    for (const { label, value } of document.paymentInstructions) lines.push(`${label}: ${value}`);
  }
  lines.push('');
  if (document.hostedUrl) lines.push(`View the invoice online: ${document.hostedUrl}`, '');
  lines.push('The invoice is attached as a PDF.', '', document.merchant.name);
  return `${lines.join('\n')}\n`;
}

const e = escapeHtml;
const cell = 'style="padding:4px 12px 4px 0;text-align:left;vertical-align:top"';
const rows = (values: LabelledValue[]) =>
  values.map(({ label, value }) => `<tr><th ${cell}>${e(label)}</th><td ${cell}>${e(value)}</td></tr>`).join('');

function html(document: InvoiceDocument, facts: LabelledValue[], message: string | undefined, intro: string) {
  const note = message
    ? `<p style="white-space:pre-line;border-left:3px solid #ccc;padding-left:12px">${e(message)}</p>`
    : '';
  const items = document.lines
    .map(
      (line) =>
        `<tr><td ${cell}>${e(line.name)}</td><td ${cell}>${e(line.quantity)}</td><td ${cell}>${e(line.unitCost)}</td>` +
        `<td ${cell}>${e(line.lineTotal)}</td></tr>`,
    )
    .join('');
  const transfer = document.payByTransfer ? `<p><strong>${e(document.payByTransfer)}</strong></p>` : '';
  const pay =
    document.paymentInstructions.length > 0 || transfer
      ? `<h3>How to pay</h3>${transfer}<table role="presentation">${rows(document.paymentInstructions)}</table>`
      : '';
  const link = document.hostedUrl ? `<p><a href="${e(document.hostedUrl)}">View the invoice online</a></p>` : '';
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${e(`Invoice ${document.number}`)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px">',
    `<p>Hello ${e(document.client.name)},</p>`,
    `<p>${e(intro)}</p>`,
    note,
    `<table role="presentation">${rows(facts)}</table>`,
    `<h3>Items</h3><table><tr><th ${cell}>Item</th><th ${cell}>Qty</th><th ${cell}>Unit cost</th><th ${cell}>Total</th></tr>${items}</table>`,
    pay,
    link,
    '<p>The invoice is attached as a PDF.</p>',
    `<p>${e(document.merchant.name)}</p>`,
    '</body></html>',
  ].join('\n');
}
