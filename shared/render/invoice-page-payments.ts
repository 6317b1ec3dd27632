/**
 * The hosted page's parts about paying (docs/getting-paid-online.md "The pay button", "Receipts"): a notice at the
 * top (a payment received, being confirmed, or why the page came back), the pay button — a plain form, no script —,
 * the payments made, and the PAID mark. ./invoice-page.ts places them.
 */
import { type Html, html } from './html.ts';
import type { InvoiceDocument, ShownDate } from './invoice-document.ts';

/** What the page says above the invoice after a press of the pay button or a return from the checkout. */
export type PageNotice =
  | { kind: 'received'; amount: string; date: ShownDate; channel: string; stillDue: string; refunded?: string }
  | { kind: 'confirming' }
  | { kind: 'message'; text: string };

/** The sentence shown when Paystack cannot be reached or answers too late. */
export const UNAVAILABLE_NOTICE =
  'Online payment is unavailable right now. Try again, or pay by the instructions below.';

export function noticeSection(notice: PageNotice | undefined): Html {
  if (!notice) return html``;
  if (notice.kind === 'message') return html`<section class="notice" role="status"><p>${notice.text}</p></section>`;
  if (notice.kind === 'confirming')
    return html`<section class="notice" role="status"><h2>Payment being confirmed</h2>
<p>Your payment is being confirmed with the payment provider. This page shows it once it is confirmed; there is no need to pay again.</p></section>`;
  return html`<section class="notice received" role="status"><h2>Payment received</h2>
<dl><dt>Amount</dt><dd>${notice.amount}</dd>
<dt>Date</dt><dd><time datetime="${notice.date.iso}">${notice.date.text}</time></dd>
<dt>Channel</dt><dd>${notice.channel}</dd>
<dt>Still due</dt><dd>${notice.stillDue}</dd></dl>${
    notice.refunded ? html`<p class="muted">${notice.refunded} of it is being refunded to you.</p>` : html``
  }</section>`;
}

/** The pay button of an open invoice of a connected account: a form posting to the page's own `/pay`. */
export function payButton(document: InvoiceDocument): Html {
  const pay = document.payments?.payOnline;
  if (!pay || document.status === 'paid' || document.status === 'void') return html``;
  return html`<form class="pay-online" method="post" action="${pay.action}">
<button type="submit">Pay ${pay.amount}</button>
<p class="muted">${pay.fee ? `Includes the ${pay.fee} processing fee. ` : ''}Card, bank transfer or USSD, through Paystack.</p>
</form>`;
}

/** The payments made, oldest first; reversed ones struck through. */
export function receiptsSection(document: InvoiceDocument): Html {
  const receipts = document.payments?.receipts ?? [];
  if (receipts.length === 0) return html``;
  const items = receipts.map((receipt) => {
    const line = html`<span><time datetime="${receipt.date.iso}">${receipt.date.text}</time> · ${receipt.channel}</span><span class="num">${receipt.amount}</span>`;
    const refund = receipt.refund
      ? html`<span class="muted refund">${receipt.refund.received} received, ${receipt.refund.refunded} refunded</span>`
      : html``;
    const withheld = receipt.withheld
      ? html`<span class="muted refund">and ${receipt.withheld} withholding tax deducted</span>`
      : html``;
    return receipt.reversed
      ? html`<li class="receipt reversed"><del>${line}</del><span class="muted">reversed</span></li>`
      : html`<li class="receipt">${line}${refund}${withheld}</li>`;
  });
  return html`<h2>Payments</h2>
<ul class="receipts">${items}</ul>`;
}

/** The invoice's credit notes (docs/tax.md "Credit notes"): number, day, reason and amount each. */
export function creditNotesSection(document: InvoiceDocument): Html {
  const notes = document.payments?.creditNotes ?? [];
  if (notes.length === 0) return html``;
  const items = notes.map(
    (note) =>
      html`<li class="receipt"><span>${note.number} · <time datetime="${note.date.iso}">${note.date.text}</time></span><span class="num">${note.amount}</span><span class="muted refund">${note.reason}</span></li>`,
  );
  return html`<h2>Credit notes</h2>
<ul class="receipts credit-notes">${items}</ul>`;
}

/** `PAID on <date>` beside the status of a paid invoice. */
export function paidMark(document: InvoiceDocument): Html {
  const paidOn = document.payments?.paidOn;
  if (document.status !== 'paid' || !paidOn) return html``;
  return html` <span class="paid-on">PAID on <time datetime="${paidOn.iso}">${paidOn.text}</time></span>`;
}
