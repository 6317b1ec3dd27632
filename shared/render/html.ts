/**
 * HTML for the hosted pages (docs/sending-invoices.md "The hosted page"): every text users typed is escaped, and only
 * markup built with `html` is not.
 */
import { LOGO_CID, type Logo } from '../domain/logo.ts';
import type { LabelledValue } from './invoice-document.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element's content or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Markup already escaped (or written by hand): interpolated as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A tagged template whose interpolations are escaped unless they are already `Html`. */
export function html(strings: TemplateStringsArray, ...values: (string | Html | readonly Html[])[]): Html {
  let text = strings[0]!;
  values.forEach((value, index) => {
    const part = Array.isArray(value)
      ? value.map(String).join('')
      : value instanceof Html
        ? value.text
        : escapeHtml(value as string);
    text += part + strings[index + 1]!;
  });
  return new Html(text);
}

export const list = (items: readonly LabelledValue[]): Html =>
  html`<dl>${items.map((item) => html`<dt>${item.label}</dt><dd>${item.value}</dd>`)}</dl>`;

/** The merchant's logo in an e-mail: the image attached inline under LOGO_CID (mail clients block `data:` URLs). */
export const emailLogo = (merchant: { name: string; logo?: Logo }): string =>
  merchant.logo
    ? `<p><img src="cid:${LOGO_CID}" alt="${escapeHtml(merchant.name)}" style="max-width:200px;max-height:64px"></p>`
    : '';
