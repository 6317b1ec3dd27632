/**
 * Our own statement of the EN 16931 and Peppol BIS Billing 3.0 business rules that apply to what the renderer writes
 * (docs/e-invoice.md "Validation"): the published Schematron is not shipped by any npm or Debian package, so these
 * rules restate the ones that matter here, each under the published rule's id, with our own XPath. Each rule selects
 * its context nodes and asserts a test on each, as Schematron does; ./ubl-validation.ts runs them with fontoxpath.
 *
 * Amounts are compared to the half-kobo (`abs(a - b) < 0.005`): fontoxpath's decimals are binary doubles, and every
 * amount has two decimals (the BR-DEC rules), so that is equality. BR-CO-17 keeps the published rule's tolerance (a
 * difference below one currency unit): VAT on prices that include it is rounded from the gross (docs/api.md "VAT"), so
 * it may differ by a kobo from the taxable amount × rate.
 */

export interface UblRule {
  id: string;
  flag: 'fatal' | 'warning';
  /** Absolute XPath selecting the nodes the test applies to. */
  context: string;
  /** XPath evaluated on each context node; false is a finding. */
  test: string;
  text: string;
}

const LINES = '/*/(cac:InvoiceLine | cac:CreditNoteLine)';
const SELLER = '/*/cac:AccountingSupplierParty/cac:Party';
const BUYER = '/*/cac:AccountingCustomerParty/cac:Party';
const TOTAL = '/*/cac:LegalMonetaryTotal';
const VAT_ID = "cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID";
const same = (a: string, b: string) => `abs(xs:decimal(${a}) - xs:decimal(${b})) < 0.005`;
const optional = (path: string) => `(if (${path}) then xs:decimal(${path}) else 0)`;
const BASE_QUANTITY = '(if (cac:Price/cbc:BaseQuantity) then xs:decimal(cac:Price/cbc:BaseQuantity) else 1)';
const LINE_PRICE = `xs:decimal(cbc:InvoicedQuantity | cbc:CreditedQuantity) * xs:decimal(cac:Price/cbc:PriceAmount) div ${BASE_QUANTITY}`;
const LINE_CHARGES = "sum(cac:AllowanceCharge[cbc:ChargeIndicator = 'true']/xs:decimal(cbc:Amount))";
const LINE_ALLOWANCES = "sum(cac:AllowanceCharge[cbc:ChargeIndicator = 'false']/xs:decimal(cbc:Amount))";
/** GS1's check digit: weights 3 and 1 alternately from the right of the digits before it (any length, as Peppol). */
const GLN_CHECK =
  "let $s := normalize-space(.), $n := string-length($s) - 1 return matches($s, '^[0-9]+$') and " +
  'xs:integer(substring($s, $n + 1, 1)) = (10 - sum(for $i in 1 to $n return ' +
  'xs:integer(substring($s, $n + 1 - $i, 1)) * (if ($i mod 2 = 1) then 3 else 1)) mod 10) mod 10';
const rule = (id: string, context: string, test: string, text: string, flag: UblRule['flag'] = 'fatal'): UblRule => ({
  id,
  flag,
  context,
  test,
  text,
});

const DOCUMENT_RULES: UblRule[] = [
  rule('BR-01', '/*', "normalize-space(cbc:CustomizationID) != ''", 'specification identifier present'),
  rule(
    'PEPPOL-EN16931-R004',
    '/*',
    `cbc:CustomizationID = '${'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'}'`,
    'Peppol BIS Billing 3.0 specification identifier',
  ),
  rule('PEPPOL-EN16931-R001', '/*', 'exists(cbc:ProfileID)', 'business process present'),
  rule(
    'PEPPOL-EN16931-R007',
    '/*',
    "matches(cbc:ProfileID, '^urn:fdc:peppol\\.eu:2017:poacc:billing:\\d\\d:1\\.0$')",
    'business process in the Peppol form',
  ),
  rule('BR-02', '/*', "normalize-space(cbc:ID) != ''", 'document number present'),
  rule('BR-03', '/*', 'exists(cbc:IssueDate)', 'issue date present'),
  rule('BR-04', '/*', 'exists(cbc:InvoiceTypeCode | cbc:CreditNoteTypeCode)', 'type code present'),
  rule(
    'PEPPOL-EN16931-P0100',
    '/*/cbc:InvoiceTypeCode',
    ". = ('380', '383', '386', '393', '82', '80', '84', '395', '575', '623', '780')",
    'invoice type code allowed by the profile',
  ),
  rule(
    'PEPPOL-EN16931-P0101',
    '/*/cbc:CreditNoteTypeCode',
    ". = ('381', '396', '81', '83', '532')",
    'credit note type code allowed by the profile',
  ),
  rule('BR-05', '/*', 'exists(cbc:DocumentCurrencyCode)', 'document currency present'),
  rule('BR-CL-04', '/*/cbc:DocumentCurrencyCode', '. = $currencies?*', 'document currency in ISO 4217'),
  rule('PEPPOL-EN16931-R002', '/*', 'count(cbc:Note) <= 1', 'at most one note'),
  rule(
    'PEPPOL-EN16931-R003',
    '/*',
    'exists(cbc:BuyerReference | cac:OrderReference/cbc:ID)',
    'buyer reference or order reference present',
  ),
  rule('BR-16', '/*', `exists(${LINES})`, 'at least one line'),
  rule(
    'BR-55',
    '/*/cac:BillingReference',
    'exists(cac:InvoiceDocumentReference/cbc:ID)',
    'preceding invoice reference has its number',
  ),
  rule(
    'UBL-SR-06',
    '/*/cac:BillingReference',
    'count(cac:InvoiceDocumentReference) <= 1',
    'one preceding invoice reference',
  ),
  rule(
    'BR-52',
    '/*/cac:AdditionalDocumentReference',
    "normalize-space(cbc:ID) != ''",
    'supporting document has a reference',
  ),
  rule(
    'UBL-SR-43',
    '/*/cac:AdditionalDocumentReference',
    "not(cbc:ID/@schemeID) or cbc:DocumentTypeCode = '130'",
    'scheme only on an invoiced object reference',
  ),
  rule('UBL-CR-005', '/*', 'not(cbc:UUID)', 'no UUID', 'warning'),
  rule(
    'PEPPOL-EN16931-F001',
    '//(cbc:IssueDate | cbc:DueDate | cbc:TaxPointDate)',
    "matches(., '^\\d{4}-\\d{2}-\\d{2}$') and (. castable as xs:date)",
    'date as YYYY-MM-DD',
  ),
  rule('PEPPOL-EN16931-R008', '//*[not(*) and not(normalize-space())]', 'false()', 'no empty element'),
];

const PARTY_RULES: UblRule[] = [
  rule(
    'BR-06',
    '/*',
    `normalize-space(${SELLER}/cac:PartyLegalEntity/cbc:RegistrationName) != ''`,
    'seller name present',
  ),
  rule(
    'BR-07',
    '/*',
    `normalize-space(${BUYER}/cac:PartyLegalEntity/cbc:RegistrationName) != ''`,
    'buyer name present',
  ),
  rule('BR-08', '/*', `exists(${SELLER}/cac:PostalAddress)`, 'seller postal address present'),
  rule(
    'BR-09',
    SELLER,
    "normalize-space(cac:PostalAddress/cac:Country/cbc:IdentificationCode) != ''",
    'seller country present',
  ),
  rule('BR-10', '/*', `exists(${BUYER}/cac:PostalAddress)`, 'buyer postal address present'),
  rule(
    'BR-11',
    BUYER,
    "normalize-space(cac:PostalAddress/cac:Country/cbc:IdentificationCode) != ''",
    'buyer country present',
  ),
  rule('BR-CL-14', '//cac:Country/cbc:IdentificationCode', '. = $countries?*', 'country code in ISO 3166-1'),
  rule('PEPPOL-EN16931-R020', SELLER, 'exists(cbc:EndpointID)', 'seller electronic address present'),
  rule('PEPPOL-EN16931-R010', BUYER, 'exists(cbc:EndpointID)', 'buyer electronic address present'),
  rule('BR-62', `${SELLER}/cbc:EndpointID`, 'exists(@schemeID)', 'seller electronic address has a scheme'),
  rule('BR-63', `${BUYER}/cbc:EndpointID`, 'exists(@schemeID)', 'buyer electronic address has a scheme'),
  rule('BR-CL-25', '//cbc:EndpointID', '@schemeID = $easCodes?*', 'electronic address scheme in the EAS code list'),
  rule(
    'PEPPOL-EN16931-CL008',
    '//cbc:EndpointID',
    '@schemeID = $peppolEasCodes?*',
    "electronic address scheme in Peppol's EAS list",
  ),
  rule('PEPPOL-COMMON-R040', "//cbc:EndpointID[@schemeID = '0088']", GLN_CHECK, 'GLN with a valid check digit'),
  rule(
    'BR-CO-09',
    `//${VAT_ID}`,
    "substring(., 1, 2) = ($countries?*, 'EL')",
    'VAT identifier prefixed with a country code',
  ),
  rule(
    'BR-CO-26',
    SELLER,
    `exists(${VAT_ID} | cac:PartyIdentification/cbc:ID | cac:PartyLegalEntity/cbc:CompanyID)`,
    'seller identifiable',
  ),
  rule('UBL-SR-12', SELLER, `count(${VAT_ID}) <= 1`, 'one seller VAT identifier'),
  rule(
    'UBL-SR-13',
    SELLER,
    "count(cac:PartyTaxScheme[cac:TaxScheme/cbc:ID != 'VAT']/cbc:CompanyID) <= 1",
    'one seller tax registration identifier',
  ),
  rule(
    'UBL-SR-53',
    '//cac:PartyTaxScheme',
    'exists(cbc:CompanyID) and exists(cac:TaxScheme/cbc:ID)',
    'party tax scheme with its identifier',
  ),
  rule(
    'UBL-SR-19',
    SELLER,
    'not(cac:PartyName/cbc:Name = cac:PartyLegalEntity/cbc:RegistrationName)',
    'trading name differs from the legal name',
  ),
  rule('UBL-SR-51', '//cac:PostalAddress', 'count(cac:AddressLine) <= 1', 'one third address line'),
];

const TOTAL_RULES: UblRule[] = [
  rule('BR-12', TOTAL, 'exists(cbc:LineExtensionAmount)', 'sum of line net amounts present'),
  rule('BR-13', TOTAL, 'exists(cbc:TaxExclusiveAmount)', 'total without VAT present'),
  rule('BR-14', TOTAL, 'exists(cbc:TaxInclusiveAmount)', 'total with VAT present'),
  rule('BR-15', TOTAL, 'exists(cbc:PayableAmount)', 'amount due present'),
  rule(
    'BR-CO-10',
    TOTAL,
    same('cbc:LineExtensionAmount', `sum(${LINES}/xs:decimal(cbc:LineExtensionAmount))`),
    'sum of line net amounts = Σ line net amounts',
  ),
  rule(
    'BR-CO-11',
    TOTAL,
    `not(cbc:AllowanceTotalAmount) or ${same('cbc:AllowanceTotalAmount', "sum(/*/cac:AllowanceCharge[cbc:ChargeIndicator = 'false']/xs:decimal(cbc:Amount))")}`,
    'allowance total = Σ document-level allowances',
  ),
  rule(
    'BR-CO-13',
    TOTAL,
    same(
      'cbc:TaxExclusiveAmount',
      `xs:decimal(cbc:LineExtensionAmount) - ${optional('cbc:AllowanceTotalAmount')} + ${optional('cbc:ChargeTotalAmount')}`,
    ),
    'total without VAT = line sum − allowances + charges',
  ),
  rule(
    'BR-CO-15',
    TOTAL,
    same(
      'cbc:TaxInclusiveAmount',
      'xs:decimal(cbc:TaxExclusiveAmount) + xs:decimal(/*/cac:TaxTotal/cbc:TaxAmount[@currencyID = /*/cbc:DocumentCurrencyCode])',
    ),
    'total with VAT = total without VAT + VAT',
  ),
  rule(
    'BR-CO-16',
    TOTAL,
    same(
      'cbc:PayableAmount',
      `xs:decimal(cbc:TaxInclusiveAmount) - ${optional('cbc:PrepaidAmount')} + ${optional('cbc:PayableRoundingAmount')}`,
    ),
    'amount due = total with VAT − paid + rounding',
  ),
  rule(
    'BR-CO-25',
    TOTAL,
    'xs:decimal(cbc:PayableAmount) <= 0 or exists(/*/cbc:DueDate | /*/cac:PaymentTerms/cbc:Note)',
    'an amount due has a due date or payment terms',
  ),
  rule('UBL-SR-05', '/*', 'count(cac:PaymentTerms/cbc:Note) <= 1', 'one payment terms note'),
  rule(
    'PEPPOL-EN16931-R051',
    '//*[@currencyID] except /*/cac:TaxTotal[not(cac:TaxSubtotal)]/cbc:TaxAmount',
    '@currencyID = /*/cbc:DocumentCurrencyCode',
    'every amount in the document currency',
  ),
  rule('PEPPOL-EN16931-CL007', '//*[@currencyID]', '@currencyID = $currencies?*', 'currency in ISO 4217'),
  rule('BR-49', '/*/cac:PaymentMeans', 'exists(cbc:PaymentMeansCode)', 'payment means code present'),
  rule(
    'BR-CL-16',
    '/*/cac:PaymentMeans/cbc:PaymentMeansCode',
    '. = $paymentMeansCodes?*',
    'payment means code in UNCL 4461',
  ),
  rule(
    'BR-61',
    "/*/cac:PaymentMeans[cbc:PaymentMeansCode = ('30', '58')]",
    "normalize-space(cac:PayeeFinancialAccount/cbc:ID) != ''",
    'a credit transfer names the account',
  ),
];

const TAX_RULES: UblRule[] = [
  rule('PEPPOL-EN16931-R053', '/*', 'count(cac:TaxTotal[cac:TaxSubtotal]) = 1', 'one tax total with breakdowns'),
  rule(
    'PEPPOL-EN16931-R054',
    '/*',
    'count(cac:TaxTotal[not(cac:TaxSubtotal)]) = (if (cbc:TaxCurrencyCode) then 1 else 0)',
    'no further tax total',
  ),
  rule('BR-CO-18', '/*', 'exists(cac:TaxTotal/cac:TaxSubtotal)', 'at least one VAT breakdown'),
  rule(
    'BR-CO-14',
    '/*/cac:TaxTotal[cac:TaxSubtotal]',
    same('cbc:TaxAmount', 'sum(cac:TaxSubtotal/xs:decimal(cbc:TaxAmount))'),
    'VAT total = Σ breakdown VAT',
  ),
  rule('BR-45', '//cac:TaxSubtotal', 'exists(cbc:TaxableAmount)', 'breakdown taxable amount present'),
  rule('BR-46', '//cac:TaxSubtotal', 'exists(cbc:TaxAmount)', 'breakdown VAT present'),
  rule(
    'BR-47',
    '//cac:TaxSubtotal',
    "exists(cac:TaxCategory[cac:TaxScheme/cbc:ID = 'VAT']/cbc:ID)",
    'breakdown category present',
  ),
  rule(
    'BR-48',
    '//cac:TaxSubtotal',
    "exists(cac:TaxCategory/cbc:Percent) or cac:TaxCategory/cbc:ID = 'O'",
    'breakdown rate present unless not subject to VAT',
  ),
  rule(
    'BR-CL-17',
    '//(cac:TaxCategory | cac:ClassifiedTaxCategory)/cbc:ID',
    ". = ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M', 'B')",
    'category in UNCL 5305',
  ),
  rule(
    'BR-CO-17',
    '//cac:TaxSubtotal[cac:TaxCategory/cbc:Percent]',
    'abs(xs:decimal(cbc:TaxAmount) - round(xs:decimal(cbc:TaxableAmount) * xs:decimal(cac:TaxCategory/cbc:Percent)) div 100) < 1',
    'breakdown VAT = taxable × rate, within one currency unit',
  ),
  ...['S', 'Z', 'E', 'O'].map((category) =>
    rule(
      `BR-${category}-08`,
      `//cac:TaxSubtotal[cac:TaxCategory/cbc:ID = '${category}']`,
      `let $rate := ${optional('cac:TaxCategory/cbc:Percent')}, $lines := ${LINES}[cac:Item/cac:ClassifiedTaxCategory[cbc:ID = '${category}'][${optional('cbc:Percent')} = $rate]], $document := /*/cac:AllowanceCharge[cac:TaxCategory[cbc:ID = '${category}'][${optional('cbc:Percent')} = $rate]] return ${same('cbc:TaxableAmount', "sum($lines/xs:decimal(cbc:LineExtensionAmount)) + sum($document[cbc:ChargeIndicator = 'true']/xs:decimal(cbc:Amount)) - sum($document[cbc:ChargeIndicator = 'false']/xs:decimal(cbc:Amount))")}`,
      `${category} taxable amount = Σ its lines' net amounts (± document allowances, charges) at its rate`,
    ),
  ),
  ...['Z', 'E', 'O'].map((category) =>
    rule(
      `BR-${category}-09`,
      `//cac:TaxSubtotal[cac:TaxCategory/cbc:ID = '${category}']`,
      'xs:decimal(cbc:TaxAmount) = 0',
      `${category} VAT is zero`,
    ),
  ),
  rule(
    'BR-S-10',
    "//cac:TaxSubtotal/cac:TaxCategory[cbc:ID = 'S']",
    'not(cbc:TaxExemptionReason | cbc:TaxExemptionReasonCode)',
    'standard rate without exemption reason',
  ),
  rule(
    'BR-Z-10',
    "//cac:TaxSubtotal/cac:TaxCategory[cbc:ID = 'Z']",
    'not(cbc:TaxExemptionReason | cbc:TaxExemptionReasonCode)',
    'zero rate without exemption reason',
  ),
  rule(
    'BR-E-10',
    "//cac:TaxSubtotal/cac:TaxCategory[cbc:ID = 'E']",
    'exists(cbc:TaxExemptionReason | cbc:TaxExemptionReasonCode)',
    'exempt with a reason',
  ),
  rule(
    'BR-O-10',
    "//cac:TaxSubtotal/cac:TaxCategory[cbc:ID = 'O']",
    'exists(cbc:TaxExemptionReason | cbc:TaxExemptionReasonCode)',
    'not subject to VAT with a reason',
  ),
  ...['S', 'Z', 'E'].map((category) =>
    rule(
      `BR-${category}-01`,
      `/*[${LINES}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID = '${category}']`,
      `exists(cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory[cbc:ID = '${category}'])`,
      `${category} lines have an ${category} breakdown`,
    ),
  ),
  ...['S', 'Z', 'E'].map((category) =>
    rule(
      `BR-${category}-02`,
      `/*[${LINES}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID = '${category}']`,
      `exists(${SELLER}/${VAT_ID})`,
      `${category} lines need the seller's VAT identifier`,
    ),
  ),
  rule(
    'BR-O-02',
    `/*[${LINES}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID = 'O']`,
    `not(${SELLER}/${VAT_ID} | ${BUYER}/${VAT_ID})`,
    'no VAT identifiers when not subject to VAT',
  ),
  rule(
    'BR-O-11',
    "/*[cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID = 'O']",
    'count(cac:TaxTotal/cac:TaxSubtotal) = 1',
    'not subject to VAT: the only breakdown',
  ),
  rule(
    'BR-O-12',
    "/*[cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID = 'O']",
    `every $id in ${LINES}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID satisfies $id = 'O'`,
    'not subject to VAT: every line',
  ),
];

const LINE_RULES: UblRule[] = [
  rule('BR-21', LINES, "normalize-space(cbc:ID) != ''", 'line identifier present'),
  rule('BR-22', LINES, 'exists(cbc:InvoicedQuantity | cbc:CreditedQuantity)', 'line quantity present'),
  rule('BR-23', LINES, 'exists((cbc:InvoicedQuantity | cbc:CreditedQuantity)/@unitCode)', 'line unit present'),
  rule(
    'BR-CL-23',
    LINES,
    '(cbc:InvoicedQuantity | cbc:CreditedQuantity)/@unitCode = $unitCodes?*',
    'unit of measure in UN/ECE Recommendation 20 (the subset the renderer uses)',
  ),
  rule('BR-24', LINES, 'exists(cbc:LineExtensionAmount)', 'line net amount present'),
  rule('BR-25', LINES, "normalize-space(cac:Item/cbc:Name) != ''", 'item name present'),
  rule('BR-26', LINES, 'exists(cac:Price/cbc:PriceAmount)', 'item net price present'),
  rule('BR-27', LINES, 'xs:decimal(cac:Price/cbc:PriceAmount) >= 0', 'item net price not negative'),
  rule(
    'BR-CO-04',
    LINES,
    "exists(cac:Item/cac:ClassifiedTaxCategory[cac:TaxScheme/cbc:ID = 'VAT']/cbc:ID)",
    'line VAT category present',
  ),
  rule(
    'BR-S-05',
    `${LINES}/cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'S']`,
    'xs:decimal(cbc:Percent) > 0',
    'standard-rated line rate above zero',
  ),
  rule(
    'BR-Z-05',
    `${LINES}/cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'Z']`,
    'xs:decimal(cbc:Percent) = 0',
    'zero-rated line rate zero',
  ),
  rule(
    'BR-E-05',
    `${LINES}/cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'E']`,
    'xs:decimal(cbc:Percent) = 0',
    'exempt line rate zero',
  ),
  rule(
    'BR-O-05',
    `${LINES}/cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'O']`,
    'not(cbc:Percent)',
    'line not subject to VAT without a rate',
  ),
  rule(
    'PEPPOL-EN16931-R120',
    LINES,
    `abs(xs:decimal(cbc:LineExtensionAmount) - (${LINE_PRICE} + ${LINE_CHARGES} - ${LINE_ALLOWANCES})) <= 0.02`,
    'line net = quantity × price − allowances + charges',
  ),
  rule('PEPPOL-EN16931-R121', `${LINES}/cac:Price/cbc:BaseQuantity`, 'xs:decimal(.) > 0', 'base quantity above zero'),
  rule('UBL-SR-34', LINES, 'count(cbc:Note) <= 1', 'one line note'),
  rule(
    'BR-41',
    `${LINES}/cac:AllowanceCharge[cbc:ChargeIndicator = 'false']`,
    'exists(cbc:Amount)',
    'line allowance amount present',
  ),
  rule(
    'BR-42',
    `${LINES}/cac:AllowanceCharge[cbc:ChargeIndicator = 'false']`,
    'exists(cbc:AllowanceChargeReason | cbc:AllowanceChargeReasonCode)',
    'line allowance reason present',
  ),
  rule(
    'PEPPOL-EN16931-R043',
    '//cac:AllowanceCharge',
    "cbc:ChargeIndicator = ('true', 'false')",
    'charge indicator true or false',
  ),
  rule(
    'PEPPOL-EN16931-CL002',
    "//cac:AllowanceCharge[cbc:ChargeIndicator = 'false']/cbc:AllowanceChargeReasonCode",
    ". = ('41', '42', '60', '62', '63', '64', '65', '66', '67', '68', '70', '71', '88', '95', '100', '102', '103', '104', '105')",
    'allowance reason code in UNCL 5189',
  ),
];

/** Two decimals at most, by amount (the published BR-DEC rules, one per business term). */
const DECIMAL_RULES: UblRule[] = [
  ['BR-DEC-09', `${TOTAL}/cbc:LineExtensionAmount`],
  ['BR-DEC-10', `${TOTAL}/cbc:AllowanceTotalAmount`],
  ['BR-DEC-12', `${TOTAL}/cbc:TaxExclusiveAmount`],
  ['BR-DEC-13', '/*/cac:TaxTotal/cbc:TaxAmount'],
  ['BR-DEC-14', `${TOTAL}/cbc:TaxInclusiveAmount`],
  ['BR-DEC-16', `${TOTAL}/cbc:PrepaidAmount`],
  ['BR-DEC-18', `${TOTAL}/cbc:PayableAmount`],
  ['BR-DEC-19', '//cac:TaxSubtotal/cbc:TaxableAmount'],
  ['BR-DEC-20', '//cac:TaxSubtotal/cbc:TaxAmount'],
  ['BR-DEC-23', `${LINES}/cbc:LineExtensionAmount`],
  ['BR-DEC-24', `${LINES}/cac:AllowanceCharge/cbc:Amount`],
].map(([id, context]) => rule(id!, context!, "string-length(substring-after(., '.')) <= 2", 'at most two decimals'));

export const UBL_RULES: readonly UblRule[] = [
  ...DOCUMENT_RULES,
  ...PARTY_RULES,
  ...TOTAL_RULES,
  ...TAX_RULES,
  ...LINE_RULES,
  ...DECIMAL_RULES,
];
