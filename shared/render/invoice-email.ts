/**
 * What the client reads in the invoice e-mail (docs/sending-invoices.md "The e-mail"), pure: the subject, a plain-text
 * body and an HTML body with the same content, rendered from the invoice document the page and the PDF are rendered
 * from (./invoice-document.ts), so the three never disagree — who it is from, the invoice number, the items, the total
 * and amount due, the due date, the merchant's optional note, how to pay and the link to the hosted page. The PDF is
 * attached by the mailer. Everything a user typed is escaped in the HTML, which has no script, no remote image and no
 * style sheet (mail clients strip them; inline styles only).
 */
import { reminderDueText } from '../domain/reminders.ts';
import { emailLogo, escapeHtml } from './html.ts';
import type { InvoiceDocument, LabelledValue } from './invoice-document.ts';

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
    { label: 'Issued', value: document.issued.text },
    { label: 'Bill to', value: billTo(document.client) },
    ...document.split.map((row) => ({ label: row.label, value: row.amount })),
    { label: 'Total', value: document.total },
    { label: 'Amount paid', value: document.amountPaid },
    { label: 'Amount due', value: document.amountDue },
    { label: 'Due date', value: document.due.text },
    { label: 'Status', value: document.statusLabel },
    ...paidOn(document),
    ...(document.payments?.creditNotes ?? []).map((note) => ({
      label: `Credit note ${note.number}`,
      value: `${note.amount} on ${note.date.text}: ${note.reason}`,
    })),
  ];
  return {
    subject,
    text: plainText(document, facts, message, intro),
    html: html(document, facts, message, intro),
    pdfFileName: `invoice-${document.referenceCode}.pdf`,
  };
}

/** A paid invoice says when it was paid, as its page and PDF do. */
const paidOn = (document: InvoiceDocument): LabelledValue[] =>
  document.status === 'paid' && document.payments?.paidOn
    ? [{ label: 'Paid on', value: document.payments.paidOn.text }]
    : [];

/** How to pay is for what is still to pay: a paid or voided invoice's e-mail leaves it out, as its PDF does. */
const asksToPay = (document: InvoiceDocument): boolean =>
  document.status !== 'paid' &&
  document.status !== 'void' &&
  (document.paymentInstructions.length > 0 || document.payByTransfer !== undefined);

function plainText(document: InvoiceDocument, facts: LabelledValue[], message: string | undefined, intro: string) {
  const lines = [`Hello ${document.client.name},`, '', intro, ''];
  if (message) lines.push(message, '');
  for (const { label, value } of facts) lines.push(`${label}: ${value}`);
  lines.push('', 'Items:');
  for (const line of document.lines)
    lines.push(`- ${line.name} × ${line.quantity} at ${line.unitCost}: ${line.lineTotal}${lineNote(line)}`);
  for (const [title, text] of notesOf(document)) lines.push('', `${title}:`, text);
  if (asksToPay(document)) {
    lines.push('', 'How to pay:');
    if (document.payByTransfer) lines.push(document.payByTransfer);
    for (const { label, value } of document.paymentInstructions) lines.push(`${label}: ${value}`);
  }
  lines.push('');
  if (document.hostedUrl) lines.push(`View the invoice online: ${document.hostedUrl}`, '');
  lines.push('The invoice is attached as a PDF.', '', document.merchant.name);
  return `${lines.join('\n')}\n`;
}

/** The client as "Bill to" names it on the page and the PDF, on one line: name, company, address. */
const billTo = (client: InvoiceDocument['client']): string =>
  [client.name, client.company, ...client.address].filter((part) => part !== undefined && part !== '').join(', ');

/** A line's discount and VAT category, after its amount. */
function lineNote(line: InvoiceDocument['lines'][number]): string {
  const notes = [line.discount ? `less ${line.discount} discount` : undefined, line.taxLabel].filter(Boolean);
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}

/** The merchant's notes and terms, those given, with their titles. */
const notesOf = (document: InvoiceDocument): [string, string][] =>
  [
    ['Notes', document.notes],
    ['Terms', document.terms],
  ].filter((entry): entry is [string, string] => entry[1] !== undefined);

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
        `<td ${cell}>${e(line.lineTotal)}${e(lineNote(line))}</td></tr>`,
    )
    .join('');
  const notes = notesOf(document)
    .map(([title, text]) => `<h3>${e(title)}</h3><p style="white-space:pre-line">${e(text)}</p>`)
    .join('');
  const transfer = document.payByTransfer ? `<p><strong>${e(document.payByTransfer)}</strong></p>` : '';
  const pay = asksToPay(document)
    ? `<h3>How to pay</h3>${transfer}<table role="presentation">${rows(document.paymentInstructions)}</table>`
    : '';
  const link = document.hostedUrl ? `<p><a href="${e(document.hostedUrl)}">View the invoice online</a></p>` : '';
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${e(`Invoice ${document.number}`)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px">',
    emailLogo(document.merchant),
    `<p>Hello ${e(document.client.name)},</p>`,
    `<p>${e(intro)}</p>`,
    note,
    `<table role="presentation">${rows(facts)}</table>`,
    `<h3>Items</h3><table><tr><th ${cell}>Item</th><th ${cell}>Qty</th><th ${cell}>Unit cost</th><th ${cell}>Total</th></tr>${items}</table>`,
    notes,
    pay,
    link,
    '<p>The invoice is attached as a PDF.</p>',
    `<p>${e(document.merchant.name)}</p>`,
    '</body></html>',
  ].join('\n');
}
