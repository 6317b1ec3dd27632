/**
 * What the client reads in a statement e-mail (docs/receivables.md "One client: the statement"), pure: the subject, a plain-text body
 * and an HTML body with the same content — who it is from, the period, the opening and closing balances and the number
 * of lines — rendered from the statement document the PDF is drawn from (./statement-document.ts). The PDF, with every
 * line, is attached by the mailer. Everything a user typed is escaped; no script, no remote image, inline styles only.
 */
import { emailLogo, escapeHtml } from './html.ts';
import type { LabelledValue } from './invoice-document.ts';
import type { StatementDocument } from './statement-document.ts';

export interface StatementEmailContent {
  subject: string;
  text: string;
  html: string;
  pdfFileName: string;
}

/** One line for a subject: no line breaks (a header cannot carry them), at most 200 characters. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 200);

export function statementEmailContent(document: StatementDocument): StatementEmailContent {
  const period = `${document.from.text} to ${document.to.text}`;
  const subject = oneLine(`Statement from ${document.merchant.name}, ${period}: ${document.closing} balance`);
  const intro = `${document.merchant.name} has sent you a statement of your account from ${period}.`;
  const facts: LabelledValue[] = [
    { label: `Opening balance (${document.from.text})`, value: document.opening },
    { label: 'Lines', value: String(document.lines.length) },
    { label: `Closing balance (${document.to.text})`, value: document.closing },
  ];
  return {
    subject,
    text: plainText(document, facts, intro),
    html: html(document, facts, intro),
    pdfFileName: document.fileName,
  };
}

function plainText(document: StatementDocument, facts: LabelledValue[], intro: string): string {
  const lines = [`Hello ${document.client.name},`, '', intro, ''];
  for (const { label, value } of facts) lines.push(`${label}: ${value}`);
  lines.push('', 'The statement is attached as a PDF.', '', document.merchant.name);
  return `${lines.join('\n')}\n`;
}

const e = escapeHtml;
const cell = 'style="padding:4px 12px 4px 0;text-align:left;vertical-align:top"';

function html(document: StatementDocument, facts: LabelledValue[], intro: string): string {
  const rows = facts.map(({ label, value }) => `<tr><th ${cell}>${e(label)}</th><td ${cell}>${e(value)}</td></tr>`);
  return [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${e(`Statement from ${document.merchant.name}`)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px">',
    emailLogo(document.merchant),
    `<p>Hello ${e(document.client.name)},</p>`,
    `<p>${e(intro)}</p>`,
    `<table role="presentation">${rows.join('')}</table>`,
    '<p>The statement is attached as a PDF.</p>',
    `<p>${e(document.merchant.name)}</p>`,
    '</body></html>',
  ].join('\n');
}
