/**
 * The money of a UBL document (docs/e-invoice.md "Amounts"): the VAT breakdown, the document totals and the lines,
 * each from ./amounts.ts. A line's discount is a line allowance (reason code 95, "Discount"), already taken out of
 * its net amount; the document has no document-level allowances, so it carries no AllowanceTotalAmount.
 */
import type { LineAmounts, UblAmounts, VatBreakdown } from './amounts.ts';
import {
  DEFAULT_EXEMPTION_REASON,
  DEFAULT_UNIT,
  NOT_SUBJECT_REASON,
  type UblDocument,
  type UblLine,
} from './document.ts';
import { aggregate, amount, basic, type XmlNode } from './xml-nodes.ts';

const DISCOUNT_REASON_CODE = '95';

export function writeTaxTotal(parent: XmlNode, document: UblDocument, amounts: UblAmounts): void {
  const total = aggregate(parent, 'TaxTotal');
  amount(total, 'TaxAmount', amounts.taxTotalKobo, document.currency);
  for (const breakdown of amounts.breakdowns) writeBreakdown(aggregate(total, 'TaxSubtotal'), document, breakdown);
}

function writeBreakdown(node: XmlNode, document: UblDocument, breakdown: VatBreakdown): void {
  amount(node, 'TaxableAmount', breakdown.taxableKobo, document.currency);
  amount(node, 'TaxAmount', breakdown.taxKobo, document.currency);
  const category = aggregate(node, 'TaxCategory');
  basic(category, 'ID', breakdown.category);
  basic(category, 'Percent', breakdown.ratePercent);
  if (breakdown.category === 'E')
    basic(category, 'TaxExemptionReason', document.exemptionReason?.trim() || DEFAULT_EXEMPTION_REASON);
  if (breakdown.category === 'O') basic(category, 'TaxExemptionReason', NOT_SUBJECT_REASON);
  basic(aggregate(category, 'TaxScheme'), 'ID', 'VAT');
}

export function writeMonetaryTotal(parent: XmlNode, document: UblDocument, amounts: UblAmounts): void {
  const total = aggregate(parent, 'LegalMonetaryTotal');
  amount(total, 'LineExtensionAmount', amounts.lineTotalKobo, document.currency);
  amount(total, 'TaxExclusiveAmount', amounts.lineTotalKobo, document.currency);
  amount(total, 'TaxInclusiveAmount', amounts.totalKobo, document.currency);
  if (amounts.prepaidKobo > 0) amount(total, 'PrepaidAmount', amounts.prepaidKobo, document.currency);
  amount(total, 'PayableAmount', amounts.payableKobo, document.currency);
}

export function writeLine(parent: XmlNode, document: UblDocument, line: LineAmounts): void {
  const isInvoice = document.type === 'Invoice';
  const node = aggregate(parent, isInvoice ? 'InvoiceLine' : 'CreditNoteLine');
  basic(node, 'ID', line.line.id);
  basic(node, isInvoice ? 'InvoicedQuantity' : 'CreditedQuantity', String(line.line.quantity), {
    unitCode: line.line.unitCode ?? DEFAULT_UNIT,
  });
  amount(node, 'LineExtensionAmount', line.netKobo, document.currency);
  if (line.allowanceKobo > 0) {
    const allowance = aggregate(node, 'AllowanceCharge');
    basic(allowance, 'ChargeIndicator', 'false');
    basic(allowance, 'AllowanceChargeReasonCode', DISCOUNT_REASON_CODE);
    basic(allowance, 'AllowanceChargeReason', 'Discount');
    amount(allowance, 'Amount', line.allowanceKobo, document.currency);
  }
  writeItem(aggregate(node, 'Item'), line.line);
  basic(aggregate(node, 'Price'), 'PriceAmount', line.unitNetPrice, { currencyID: document.currency });
}

function writeItem(item: XmlNode, line: UblLine): void {
  basic(item, 'Description', line.description);
  basic(item, 'Name', line.name);
  const category = aggregate(item, 'ClassifiedTaxCategory');
  basic(category, 'ID', line.category);
  if (line.category !== 'O') basic(category, 'Percent', line.ratePercent ?? '0');
  basic(aggregate(category, 'TaxScheme'), 'ID', 'VAT');
}
