/**
 * The UBL engine: a document (./document.ts) as UBL 2.1 XML, an Invoice or a CreditNote per Peppol BIS Billing 3.0
 * (docs/e-invoice.md). It imports xmlbuilder2, so it is loaded on the first rendering only (../engines.ts); the element
 * order is the UBL schema's, which the tests check.
 */

import { ublAmounts } from './amounts.ts';
import { assertRenderable } from './checks.ts';
import { CUSTOMIZATION_ID, IRN_DESCRIPTION, PROFILE_ID, TYPE_CODES, type UblDocument } from './document.ts';
import { writeLine, writeMonetaryTotal, writeTaxTotal } from './xml-lines.ts';
import { aggregate, basic, date, documentRoot, type XmlNode } from './xml-nodes.ts';
import { writeParty, writePaymentMeans, writePaymentTerms } from './xml-parties.ts';

/** The document as UBL XML (UTF-8, with its declaration); throws a UblModelError for a document it cannot render. */
export function buildUbl(document: UblDocument): string {
  assertRenderable(document);
  const amounts = ublAmounts(document);
  const root = documentRoot(document.type);
  writeHeader(root, document);
  writeReferences(root, document);
  writeParty(root, document, 'supplier');
  writeParty(root, document, 'customer');
  writePaymentMeans(root, document);
  if (amounts.payableKobo > 0 || document.paymentTerms?.trim()) writePaymentTerms(root, document);
  writeTaxTotal(root, document, amounts);
  writeMonetaryTotal(root, document, amounts);
  for (const line of amounts.lines) writeLine(root, document, line);
  return root.end({ prettyPrint: true });
}

/** Identifiers, dates, type, note, currency: in the order each document type's schema sets. */
function writeHeader(root: XmlNode, document: UblDocument): void {
  basic(root, 'CustomizationID', CUSTOMIZATION_ID);
  basic(root, 'ProfileID', PROFILE_ID);
  basic(root, 'ID', document.number);
  date(root, 'IssueDate', document.issueDate);
  if (document.type === 'Invoice') {
    date(root, 'DueDate', document.dueDate);
    basic(root, 'InvoiceTypeCode', TYPE_CODES.Invoice);
  } else {
    basic(root, 'CreditNoteTypeCode', TYPE_CODES.CreditNote);
  }
  basic(root, 'Note', document.note);
  basic(root, 'DocumentCurrencyCode', document.currency);
}

/**
 * The buyer's reference (or, with neither it nor an order reference, the invoice's number: docs/e-invoice.md
 * "References"), the order, the credited invoice and the IRN as an additional document reference.
 */
function writeReferences(root: XmlNode, document: UblDocument): void {
  const invoiceNumber = document.creditedInvoice?.number ?? document.number;
  const hasOrder = Boolean(document.orderReference?.trim());
  basic(root, 'BuyerReference', document.buyerReference?.trim() || (hasOrder ? undefined : invoiceNumber));
  if (hasOrder) basic(aggregate(root, 'OrderReference'), 'ID', document.orderReference);
  if (document.creditedInvoice) {
    const reference = aggregate(aggregate(root, 'BillingReference'), 'InvoiceDocumentReference');
    basic(reference, 'ID', document.creditedInvoice.number);
    date(reference, 'IssueDate', document.creditedInvoice.issueDate);
  }
  if (document.irn?.trim()) {
    const reference = aggregate(root, 'AdditionalDocumentReference');
    basic(reference, 'ID', document.irn);
    basic(reference, 'DocumentDescription', IRN_DESCRIPTION);
  }
}
