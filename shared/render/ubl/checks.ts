/**
 * What a document must be for its UBL to meet the rules (docs/e-invoice.md "What the renderer refuses"). The mapping
 * from an invoice is expected to produce only such documents, so a failure here is a programming error: it throws,
 * naming the rule, rather than rendering a document a tax authority or a Peppol access point would reject.
 */

import { rateUnits } from './amounts.ts';
import type { UblDocument, UblLine, UblParty } from './document.ts';

export class UblModelError extends RangeError {
  constructor(message: string) {
    super(`UBL: ${message}`);
    this.name = 'UblModelError';
  }
}

export function assertRenderable(document: UblDocument): void {
  if (!/^[A-Z]{3}$/.test(document.currency)) throw new UblModelError(`not an ISO 4217 currency: ${document.currency}`);
  if (document.lines.length === 0) throw new UblModelError('a document needs at least one line');
  const ids = new Set(document.lines.map((line) => line.id));
  if (ids.size !== document.lines.length) throw new UblModelError('line ids must be unique');
  for (const line of document.lines) assertLine(line);
  assertCategories(document);
  assertParty('supplier', document.supplier);
  assertParty('customer', document.customer);
  if (document.type === 'CreditNote' && !document.creditedInvoice)
    throw new UblModelError('a credit note names the invoice it credits');
  if (document.type === 'Invoice' && document.creditedInvoice)
    throw new UblModelError('only a credit note names a credited invoice');
}

function assertLine(line: UblLine): void {
  if (!line.id.trim() || !line.name.trim()) throw new UblModelError('each line needs an id and a name');
  if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0)
    throw new UblModelError(`line ${line.id}: the quantity must be a whole number above zero`);
  if (!Number.isSafeInteger(line.unitPriceKobo) || line.unitPriceKobo < 0)
    throw new UblModelError(`line ${line.id}: the price must be whole kobo, not negative`);
  const discount = line.discountKobo ?? 0;
  if (
    !Number.isSafeInteger(discount) ||
    discount < 0 ||
    BigInt(discount) > BigInt(line.quantity) * BigInt(line.unitPriceKobo)
  )
    throw new UblModelError(`line ${line.id}: the discount must be from 0 to the line amount`);
  const rate = line.ratePercent === undefined ? undefined : rateUnits(line.ratePercent);
  if (line.category === 'S' && !(rate && rate > 0n))
    throw new UblModelError(`line ${line.id}: a standard-rated line needs a rate above zero`);
  if ((line.category === 'Z' || line.category === 'E') && rate)
    throw new UblModelError(`line ${line.id}: a zero-rated or exempt line has rate 0`);
  if (line.category === 'O' && rate !== undefined)
    throw new UblModelError(`line ${line.id}: a line not subject to VAT has no rate`);
}

/** `O` stands alone (BR-O-11, BR-O-12); VAT categories need the seller's VAT identifier, its TIN (BR-S-02…). */
function assertCategories(document: UblDocument): void {
  const notSubject = document.lines.filter((line) => line.category === 'O').length;
  if (notSubject > 0 && notSubject < document.lines.length)
    throw new UblModelError('lines not subject to VAT cannot be mixed with VAT categories');
  if (notSubject === 0 && !document.supplier.tin?.trim())
    throw new UblModelError("a document with VAT categories needs the supplier's TIN");
  if (notSubject > 0 && !document.supplier.tin?.trim() && !document.supplier.registrationNumber?.trim())
    throw new UblModelError('the supplier needs a TIN or a registration number to be identified (BR-CO-26)');
}

function assertParty(role: string, party: UblParty): void {
  if (!party.name.trim()) throw new UblModelError(`the ${role} needs a name`);
  if (!party.endpoint && !party.email?.trim())
    throw new UblModelError(`the ${role} needs an electronic address: an endpoint or an e-mail`);
  const country = party.address.countryCode;
  if (country !== undefined && !/^[A-Z]{2}$/.test(country))
    throw new UblModelError(`the ${role}'s country must be an ISO 3166-1 alpha-2 code`);
}
