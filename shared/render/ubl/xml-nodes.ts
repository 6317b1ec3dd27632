/**
 * The small vocabulary the UBL engine writes with (xmlbuilder2): aggregate (`cac:`) and basic (`cbc:`) elements in
 * their namespaces, amounts with their currency. A basic element whose text is empty is left out: an empty element
 * is an error in Peppol (docs/e-invoice.md "Validation").
 */
import { create } from 'xmlbuilder2';
import { type CalendarDate, toIsoDate } from '../../domain/dates.ts';
import { formatKobo } from '../../domain/money.ts';
import type { UblDocumentType } from './document.ts';

export type XmlNode = ReturnType<typeof create>;

export const NAMESPACES = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

/** The document element; characters XML 1.0 cannot hold (control characters typed by a user) are dropped. */
export function documentRoot(type: UblDocumentType): XmlNode {
  return create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' }).ele(NAMESPACES[type], type, {
    'xmlns:cac': NAMESPACES.cac,
    'xmlns:cbc': NAMESPACES.cbc,
  });
}

export function aggregate(parent: XmlNode, name: string): XmlNode {
  return parent.ele(NAMESPACES.cac, `cac:${name}`);
}

/** A basic element with text, or nothing when the text is absent or blank. */
export function basic(parent: XmlNode, name: string, text: string | undefined, attributes?: Record<string, string>) {
  const value = text?.trim();
  if (!value) return;
  parent.ele(NAMESPACES.cbc, `cbc:${name}`, attributes).txt(value);
}

export function amount(parent: XmlNode, name: string, kobo: number, currency: string): void {
  basic(parent, name, formatKobo(kobo), { currencyID: currency });
}

export function date(parent: XmlNode, name: string, value: CalendarDate | undefined): void {
  if (value) basic(parent, name, toIsoDate(value));
}
