/**
 * The hosted invoice page and its error pages (docs/sending-invoices.md "The hosted page"): complete HTML documents
 * with no script, nothing loaded from anywhere (one inline stylesheet, allowed by its hash; the merchant's logo a
 * `data:` URL), and every text the users
 * typed escaped. The headers that go with them (CSP, no-store, noindex) are shared/http/page-responses.ts's.
 */
import { logoDataUrl } from '../domain/logo.ts';
import { escapeHtml, type Html, html, list } from './html.ts';
import type { InvoiceDocument } from './invoice-document.ts';
import {
  creditNotesSection,
  noticeSection,
  type PageNotice,
  paidMark,
  payButton,
  receiptsSection,
} from './invoice-page-payments.ts';
import { PAGE_STYLE } from './page-style.ts';

export { escapeHtml } from './html.ts';

function pageShell(title: string, body: Html): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${body.text}
</main>
</body>
</html>
`;
}

function fromSection(document: InvoiceDocument): Html {
  const { merchant } = document;
  const logo = merchant.logo
    ? html`<img class="logo" src="${logoDataUrl(merchant.logo)}" alt="${merchant.name}" width="${String(merchant.logo.width)}" height="${String(merchant.logo.height)}">`
    : html``;
  return html`<section class="from">
${logo}<h1>${merchant.name}</h1>
${merchant.address.map((line) => html`<p class="muted">${line}</p>`)}
${merchant.contacts.length > 0 ? list(merchant.contacts) : html``}
</section>`;
}

function metaSection(document: InvoiceDocument): Html {
  return html`<section class="meta">
<p><span class="status status-${document.status}">${document.statusLabel}</span>${paidMark(document)}</p>
<dl><dt>Invoice</dt><dd>${document.number}</dd>
<dt>Reference</dt><dd>${document.referenceCode}</dd>
<dt>Issued</dt><dd><time datetime="${document.issued.iso}">${document.issued.text}</time></dd>
<dt>Due</dt><dd><time datetime="${document.due.iso}">${document.due.text}</time></dd></dl>
</section>`;
}

function itemsTable(document: InvoiceDocument): Html {
  const rows = document.lines.map(
    (line) => html`<tr>
<td class="item"><div class="item-name">${line.name}</div>${
      line.description ? html`<div class="item-description">${line.description}</div>` : html``
    }${lineNotes(line)}</td>
<td class="num qty">${line.quantity}</td>
<td class="num unit">${line.unitCost}</td>
<td class="num line">${line.lineTotal}</td>
</tr>`,
  );
  return html`<h2>Items</h2>
<table>
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit cost</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

/** A line's discount and VAT category, under its description (docs/tax.md). */
function lineNotes(line: InvoiceDocument['lines'][number]): Html {
  const notes = [line.discount ? `Discount ${line.discount}` : undefined, line.taxLabel].filter(Boolean);
  return notes.length > 0 ? html`<div class="item-description">${notes.join(' · ')}</div>` : html``;
}

function totalsSection(document: InvoiceDocument): Html {
  const split = document.split.map((row) => html`<div><dt>${row.label}</dt><dd>${row.amount}</dd></div>`);
  return html`<section class="totals"><dl>
${split}
<div><dt>Total</dt><dd>${document.total}</dd></div>
<div><dt>Amount paid</dt><dd>${document.amountPaid}</dd></div>
<div><dt class="due">Amount due</dt><dd class="due">${document.amountDue}</dd></div>
</dl></section>`;
}

function paymentSection(document: InvoiceDocument): Html {
  const settled = document.status === 'void' || document.status === 'paid';
  if ((document.paymentInstructions.length === 0 && !document.payByTransfer) || settled) return html``;
  const transfer = document.payByTransfer
    ? html`<p class="transfer"><strong>${document.payByTransfer}</strong></p>`
    : html``;
  return html`<h2>How to pay</h2>
<section class="pay">
${transfer}
${list(document.paymentInstructions)}
<p class="muted">Quote the reference ${document.referenceCode} with your payment.</p>
</section>`;
}

/** The merchant's notes and terms on the invoice, as typed (line breaks kept). */
function notesSection(document: InvoiceDocument): Html {
  const part = (title: string, text: string | undefined) =>
    text ? html`<h2>${title}</h2><p class="notes">${text}</p>` : html``;
  return html`${part('Notes', document.notes)}${part('Terms', document.terms)}`;
}

/**
 * The hosted invoice page: everything the client needs to read and pay the invoice; `notice` says what happened
 * after a press of the pay button or a return from the checkout.
 */
export function renderInvoicePage(document: InvoiceDocument, notice?: PageNotice): string {
  const title = `Invoice ${document.number} from ${document.merchant.name}`;
  const client = document.client;
  const body = html`${noticeSection(notice)}<article class="sheet">
<div class="top">
${fromSection(document)}
${metaSection(document)}
</div>
<h2>Bill to</h2>
<section class="to"><p>${client.name}</p>${client.company ? html`<p class="muted">${client.company}</p>` : html``}${client.address.map(
    (line) => html`<p class="muted">${line}</p>`,
  )}</section>
${itemsTable(document)}
${totalsSection(document)}
${notesSection(document)}
${receiptsSection(document)}
${creditNotesSection(document)}
${payButton(document)}
${paymentSection(document)}
${document.hostedUrl ? html`<p class="actions"><a href="${`${document.hostedUrl}/pdf`}">Download PDF</a></p>` : html``}
</article>
<footer>To print this invoice, use your browser's Print command.</footer>`;
  return pageShell(title, body);
}

/** 404: no invoice has this link (or it was mistyped). Says nothing about any invoice. */
export function renderNotFoundPage(): string {
  return pageShell(
    'Invoice not found',
    html`<article class="sheet"><h1>Invoice not found</h1>
<p class="muted">This link does not lead to an invoice. Check that it was copied completely, or ask the business that sent it for a new link.</p></article>`,
  );
}

/**
 * 410: the invoice behind this link was voided by the business that sent it; `notice`: what became of a payment made
 * for it meanwhile (docs/getting-paid-online.md "Refunds").
 */
export function renderVoidedPage(document: InvoiceDocument, notice?: PageNotice): string {
  const contacts = document.merchant.contacts.filter((contact) => contact.label !== 'Tax ID');
  return pageShell(
    `Invoice ${document.number} was voided`,
    html`${noticeSection(notice)}<article class="sheet"><h1>This invoice was voided</h1>
<p class="muted">Invoice ${document.number} (reference ${document.referenceCode}) from ${document.merchant.name} was voided and is no longer payable. Nothing is due on it.</p>
${contacts.length > 0 ? html`<h2>Questions? Contact ${document.merchant.name}</h2>${list(contacts)}` : html``}
</article>`,
  );
}

/** 500/503: the page could not be shown right now; nothing about the invoice. */
export function renderUnavailablePage(): string {
  return pageShell(
    'Invoice temporarily unavailable',
    html`<article class="sheet"><h1>This invoice cannot be shown right now</h1>
<p class="muted">Please try again in a minute.</p></article>`,
  );
}
