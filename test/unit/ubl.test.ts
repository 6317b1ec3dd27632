/**
 * The e-invoice (docs/e-invoice.md): representative documents render, pass the UBL 2.1 content models and the
 * EN 16931 / Peppol BIS Billing 3.0 rules (test/support/ubl-validation.ts), and read back; broken documents fail with
 * the rule ids they break; any renderable document validates and its totals are what the client was charged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKobo } from '../../shared/domain/money.ts';
import { renderUbl } from '../../shared/render/engines.ts';
import type { UblDocument, UblLine, UblParty, VatCategory } from '../../shared/render/ubl/document.ts';
import {
  CREDIT_BY_AMOUNT,
  CREDIT_BY_ITEMS,
  INCLUSIVE_PRICES,
  MIXED_WITH_DISCOUNTS,
  REPRESENTATIVE,
  STANDARD_ONLY,
  SUPPLIER,
  VAT_OFF,
} from '../support/ubl-fixtures.ts';
import { type Finding, fatalIds, parseUbl, readUbl, validateUbl } from '../support/ubl-validation.ts';

const EM_FINDING = 'PEPPOL-EN16931-CL008';

/** `EM` (e-mail) is an EN 16931 scheme Peppol does not list: one CL008 per party using it (docs/e-invoice.md). */
function expectedFindings(document: UblDocument): string[] {
  const usesEmail = (party: UblParty) => !party.endpoint || party.endpoint.scheme === 'EM';
  return [document.supplier, document.customer].filter(usesEmail).map(() => EM_FINDING);
}

const described = (findings: Finding[]) =>
  findings.map((f) => `${f.flag} ${f.id} at ${f.location}: ${f.text}`).join('\n');

async function expectValid(document: UblDocument): Promise<string> {
  const xml = await renderUbl(document);
  const findings = validateUbl(xml);
  expect(fatalIds(findings), described(findings)).toEqual(expectedFindings(document));
  expect(
    findings.filter((f) => f.flag === 'warning'),
    described(findings),
  ).toEqual([]);
  return xml;
}

describe('representative e-invoices validate', () => {
  it.each(Object.entries(REPRESENTATIVE))('%s', async (_name, document) => {
    await expectValid(document);
  });

  it('with a Peppol-registered endpoint for both parties, no finding at all', async () => {
    const customer = { ...STANDARD_ONLY.customer, endpoint: { id: '6141410000014', scheme: '0088' } };
    expect(await expectValid({ ...STANDARD_ONLY, customer })).toContain('schemeID="0088"');
  });
});

describe('reading an e-invoice back', () => {
  it('an invoice: number, dates, parties, references, payment, lines and totals', async () => {
    const read = readUbl(await renderUbl(STANDARD_ONLY));
    expect(read('/ubl:Invoice/cbc:ID')).toEqual(['INV-000001']);
    expect(read('/*/(cbc:IssueDate, cbc:DueDate, cbc:InvoiceTypeCode, cbc:DocumentCurrencyCode)')).toEqual([
      '2026-03-02',
      '2026-04-01',
      '380',
      'NGN',
    ]);
    expect(read('/*/cbc:BuyerReference')).toEqual(['INV-000001']);
    expect(read('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual(['INV000001-94ND90NR-20260302']);
    const seller = '/*/cac:AccountingSupplierParty/cac:Party';
    expect(read(`${seller}/cac:PartyLegalEntity/cbc:RegistrationName`)).toEqual(['Adaeze Textiles Limited']);
    expect(read(`${seller}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']/cbc:CompanyID`)).toEqual([
      'NG12345678-0001',
    ]);
    expect(read(`${seller}/cbc:EndpointID/(string(@schemeID), string(.))`)).toEqual(['0088', '5060012345679']);
    expect(read(`${seller}/cac:PostalAddress/(cbc:CityName, cac:Country/cbc:IdentificationCode)`)).toEqual([
      'Lagos',
      'NG',
    ]);
    expect(read('/*/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID/(string(@schemeID), string(.))')).toEqual([
      'EM',
      'accounts@bolafoods.example',
    ]);
    expect(read('/*/cac:PaymentMeans/(cbc:PaymentMeansCode, cbc:PaymentID, cac:PayeeFinancialAccount/cbc:ID)')).toEqual(
      ['30', 'INV-000001', '0123456789'],
    );
    expect(read('/*/cac:InvoiceLine/cbc:LineExtensionAmount')).toEqual(['222000.00', '75001.50']);
    expect(read('/*/cac:InvoiceLine/cbc:InvoicedQuantity/@unitCode')).toEqual(['C62', 'EA']);
    expect(read('/*/cac:TaxTotal/cbc:TaxAmount')).toEqual(['22275.11']);
    expect(read('/*/cac:LegalMonetaryTotal/*')).toEqual(['297001.50', '297001.50', '319276.61', '319276.61']);
  });

  it('a credit note: its type, lines and the invoice it credits', async () => {
    const read = readUbl(await renderUbl(CREDIT_BY_ITEMS));
    expect(read('/cn:CreditNote/(cbc:ID, cbc:CreditNoteTypeCode)')).toEqual(['CN-000002', '381']);
    expect(read('/*/cac:BillingReference/cac:InvoiceDocumentReference/(cbc:ID, cbc:IssueDate)')).toEqual([
      'INV-000001',
      '2026-03-02',
    ]);
    expect(read('/*/cbc:BuyerReference')).toEqual(['INV-000001']);
    expect(read('/*/cac:CreditNoteLine/cbc:CreditedQuantity')).toEqual(['2', '1']);
    expect(read('/*/cac:PaymentTerms/cbc:Note')).toEqual(['Credit against invoice INV-000001 of 2026-03-02']);
    expect(read('/*/cac:LegalMonetaryTotal/cbc:PayableAmount')).toEqual(['43200.00']);
  });

  it('VAT off: category O with its reason, and TINs as identifiers, never as VAT identifiers', async () => {
    const read = readUbl(await renderUbl(VAT_OFF));
    expect(read('//cac:ClassifiedTaxCategory/cbc:ID')).toEqual(['O', 'O']);
    expect(read('//cac:TaxSubtotal/cac:TaxCategory/(cbc:ID, cbc:TaxExemptionReason)')).toEqual([
      'O',
      'Not subject to VAT',
    ]);
    expect(read("//cac:PartyTaxScheme[cac:TaxScheme/cbc:ID = 'VAT']")).toEqual([]);
    expect(read('//cac:PartyIdentification/cbc:ID')).toEqual(['12345678-0001', '87654321-0001']);
    expect(read('/*/cac:LegalMonetaryTotal/(cbc:PrepaidAmount, cbc:PayableAmount)')).toEqual(['5000.00', '157500.00']);
  });

  it('prices with VAT become net prices: the total is what the client was charged', async () => {
    const read = readUbl(await renderUbl(INCLUSIVE_PRICES));
    expect(read('//cac:TaxSubtotal/(cbc:TaxableAmount, cbc:TaxAmount)')).toEqual([
      '48682.14',
      '3651.16',
      '150000.00',
      '0.00',
    ]);
    expect(read('//cac:InvoiceLine/cac:Price/cbc:PriceAmount')).toEqual([
      '9302.3266666667',
      '3100.7714285714',
      '75000.00',
    ]);
    expect(read('/*/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toEqual(['202333.30']);
  });

  it('text is escaped, and characters XML cannot hold are dropped', async () => {
    const name = 'Tola & Sons <Nig.> "Ltd" \u0007😀';
    const read = readUbl(
      await renderUbl({ ...MIXED_WITH_DISCOUNTS, customer: { ...MIXED_WITH_DISCOUNTS.customer, name } }),
    );
    expect(read('/*/cac:AccountingCustomerParty//cbc:RegistrationName')).toEqual(['Tola & Sons <Nig.> "Ltd" 😀']);
  });
});

/** A rendered document changed by `change`, which must change it. */
async function broken(document: UblDocument, change: (xml: string) => string): Promise<string[]> {
  const xml = await renderUbl(document);
  const changed = change(xml);
  expect(changed).not.toEqual(xml);
  return [...new Set(fatalIds(validateUbl(changed)).filter((id) => id !== EM_FINDING))].sort();
}

describe('broken e-invoices fail validation, naming the rules they break', () => {
  const cases: [string, UblDocument, (xml: string) => string, string[]][] = [
    [
      'an amount due that is not the total',
      STANDARD_ONLY,
      (x) => x.replace(/(PayableAmount currencyID="NGN">)[\d.]+/, '$11.00'),
      ['BR-CO-16'],
    ],
    [
      'a line net amount that is not quantity × price',
      STANDARD_ONLY,
      (x) => x.replace('222000.00', '222100.00'),
      ['BR-CO-10', 'BR-S-08', 'PEPPOL-EN16931-R120'],
    ],
    [
      'VAT that is not the rate of the taxable amount',
      MIXED_WITH_DISCOUNTS,
      (x) =>
        x.replaceAll(
          /(<cbc:TaxAmount currencyID="NGN">)([\d.]+)(<\/cbc:TaxAmount>\s*<cac:TaxCategory>\s*<cbc:ID>S)/g,
          '$1999.99$3',
        ),
      ['BR-CO-14', 'BR-CO-17'],
    ],
    [
      'elements out of the schema order',
      STANDARD_ONLY,
      (x) => x.replace(/(<cbc:IssueDate>.*<\/cbc:IssueDate>)(\s*)(<cbc:DueDate>.*<\/cbc:DueDate>)/, '$3$2$1'),
      ['UBL-XSD'],
    ],
    [
      'an element UBL does not have',
      CREDIT_BY_AMOUNT,
      (x) => x.replace('<cbc:Note>', '<cbc:Remark>x</cbc:Remark><cbc:Note>'),
      ['UBL-XSD'],
    ],
    [
      'a seller without an electronic address',
      STANDARD_ONLY,
      (x) => x.replace(/<cbc:EndpointID schemeID="0088">\d+<\/cbc:EndpointID>/, ''),
      ['PEPPOL-EN16931-R020'],
    ],
    [
      'a GLN with a wrong check digit',
      STANDARD_ONLY,
      (x) => x.replace('5060012345679', '5060012345678'),
      ['PEPPOL-COMMON-R040'],
    ],
    [
      'an amount with three decimals',
      CREDIT_BY_ITEMS,
      (x) => x.replace(/(PayableAmount currencyID="NGN">[\d.]+)/, '$11'),
      ['BR-DEC-18'],
    ],
    ['an empty element', STANDARD_ONLY, (x) => x.replace('Thank you for your business.', ' '), ['PEPPOL-EN16931-R008']],
    [
      'a VAT identifier on a document not subject to VAT',
      VAT_OFF,
      (x) => x.replace('<cbc:ID>TAX</cbc:ID>', '<cbc:ID>VAT</cbc:ID>'),
      ['BR-O-02'],
    ],
    [
      'an amount in another currency',
      INCLUSIVE_PRICES,
      (x) => x.replace('<cbc:Amount currencyID="NGN">', '<cbc:Amount currencyID="USD">'),
      ['PEPPOL-EN16931-R051'],
    ],
    [
      'an exempt breakdown without its reason',
      MIXED_WITH_DISCOUNTS,
      (x) => x.replace(/<cbc:TaxExemptionReason>[^<]*<\/cbc:TaxExemptionReason>/, ''),
      ['BR-E-10'],
    ],
    [
      'not the Peppol specification',
      CREDIT_BY_AMOUNT,
      (x) => x.replace('billing:3.0</cbc:CustomizationID>', 'billing:2.0</cbc:CustomizationID>'),
      ['PEPPOL-EN16931-R004'],
    ],
    [
      'no buyer reference',
      STANDARD_ONLY,
      (x) => x.replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, ''),
      ['PEPPOL-EN16931-R003'],
    ],
  ];

  it.each(cases)('%s', async (_name, document, change, ids) => {
    expect(await broken(document, change)).toEqual(ids);
  });

  it('XML that is not well-formed is refused by the parser', async () => {
    const xml = (await renderUbl(STANDARD_ONLY)).replace('</cbc:ID>', '');
    expect(() => parseUbl(xml)).toThrow();
  });
});

describe('what the renderer refuses', () => {
  const line = STANDARD_ONLY.lines[0]!;
  it.each<[string, UblDocument]>([
    ['no line', { ...STANDARD_ONLY, lines: [] }],
    [
      'lines not subject to VAT mixed with VAT categories',
      { ...STANDARD_ONLY, lines: [line, { ...line, id: '2', category: 'O', ratePercent: undefined }] },
    ],
    ['VAT categories without the seller TIN', { ...STANDARD_ONLY, supplier: { ...SUPPLIER, tin: undefined } }],
    ['a standard-rated line without a rate', { ...STANDARD_ONLY, lines: [{ ...line, ratePercent: undefined }] }],
    ['a discount above the line amount', { ...STANDARD_ONLY, lines: [{ ...line, discountKobo: 12 * 1_850_000 + 1 }] }],
    ['a credit note that credits no invoice', { ...CREDIT_BY_AMOUNT, creditedInvoice: undefined }],
    [
      'a party without an electronic address',
      { ...STANDARD_ONLY, supplier: { ...SUPPLIER, endpoint: undefined, email: undefined } },
    ],
    ['a prepaid amount above the total', { ...STANDARD_ONLY, prepaidKobo: 100_000_000 }],
  ])('%s', async (_name, document) => {
    await expect(renderUbl(document)).rejects.toThrow(/^UBL: /);
  });
});

const RATES = ['7.5', '5', '0.5', '12.25'];

const lineArbitrary = (vatOff: boolean) =>
  fc
    .record({
      quantity: fc.integer({ min: 1, max: 100_000 }),
      unitPriceKobo: fc.integer({ min: 0, max: 100_000_000 }),
      discountPercent: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })),
      category: vatOff ? fc.constant<VatCategory>('O') : fc.constantFrom<VatCategory>('S', 'S', 'Z', 'E'),
      rate: fc.constantFrom(...RATES),
    })
    .map(({ quantity, unitPriceKobo, discountPercent, category, rate }) => ({
      quantity,
      unitPriceKobo,
      discountKobo: Math.floor((quantity * unitPriceKobo * discountPercent) / 100),
      category,
      ratePercent: category === 'S' ? rate : category === 'O' ? undefined : '0',
    }));

const documentArbitrary = fc
  .record({ vatOff: fc.boolean(), type: fc.constantFrom<'Invoice' | 'CreditNote'>('Invoice', 'CreditNote') })
  .chain(({ vatOff, type }) =>
    fc.record({
      lines: fc.array(lineArbitrary(vatOff), { minLength: 1, maxLength: 6 }),
      pricesIncludeVat: fc.boolean(),
      prepaidPercent: fc.integer({ min: 0, max: 100 }),
      type: fc.constant(type),
    }),
  )
  .map(({ lines, pricesIncludeVat, prepaidPercent, type }) => {
    const base = type === 'Invoice' ? MIXED_WITH_DISCOUNTS : CREDIT_BY_ITEMS;
    const document: UblDocument = {
      ...base,
      pricesIncludeVat,
      lines: lines.map((l, i): UblLine => ({ ...l, id: String(i + 1), name: `Item ${i + 1}` })),
    };
    const charged = chargedTotal(document);
    return { ...document, prepaidKobo: type === 'Invoice' ? Number((charged * BigInt(prepaidPercent)) / 100n) : 0 };
  });

/** Σ quantity × price − discount: with prices including VAT, the total with VAT must be exactly this. */
function chargedTotal(document: UblDocument): bigint {
  return document.lines.reduce(
    (sum, l) => sum + BigInt(l.quantity) * BigInt(l.unitPriceKobo) - BigInt(l.discountKobo ?? 0),
    0n,
  );
}

describe('any renderable document', () => {
  it('validates, and its total is the charged amount (plus VAT on net prices, rounded once per rate)', async () => {
    await fc.assert(
      fc.asyncProperty(documentArbitrary, async (document) => {
        const xml = await renderUbl(document);
        const findings = validateUbl(xml);
        expect(fatalIds(findings), described(findings)).toEqual(expectedFindings(document));
        const [total] = readUbl(xml)('/*/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount');
        const charged = chargedTotal(document);
        if (document.pricesIncludeVat) expect(total).toEqual(formatKobo(Number(charged)));
        else expect(total).toEqual(formatKobo(Number(charged + exclusiveVat(document))));
      }),
      { numRuns: 40 },
    );
  });
});

/** VAT on net prices, worked out independently: per rate, Σ net × rate, half-up to the kobo. */
function exclusiveVat(document: UblDocument): bigint {
  const netByRate = new Map<string, bigint>();
  for (const l of document.lines) {
    if (l.category !== 'S') continue;
    const net = BigInt(l.quantity) * BigInt(l.unitPriceKobo) - BigInt(l.discountKobo ?? 0);
    netByRate.set(l.ratePercent!, (netByRate.get(l.ratePercent!) ?? 0n) + net);
  }
  let vat = 0n;
  for (const [rate, net] of netByRate) {
    const [whole, fraction = ''] = rate.split('.');
    const perMillion = BigInt(whole!) * 10_000n + BigInt(fraction.padEnd(4, '0'));
    vat += (2n * net * perMillion + 1_000_000n) / 2_000_000n;
  }
  return vat;
}
