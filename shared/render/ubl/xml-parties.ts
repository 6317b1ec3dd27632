/**
 * The seller and the buyer, and how the buyer pays (docs/e-invoice.md "Parties", "Payment"). A party's TIN is written
 * `NG` + TIN: as its VAT identifier when the document has VAT categories; on a document not subject to VAT (`O`) the
 * VAT identifiers must be absent, so the TIN identifies the party instead (and is the seller's tax registration).
 */
import { toIsoDate } from '../../domain/dates.ts';
import type { UblAddress, UblDocument, UblEndpoint, UblParty } from './document.ts';
import { DEFAULT_COUNTRY } from './document.ts';
import { aggregate, basic, type XmlNode } from './xml-nodes.ts';

type Role = 'supplier' | 'customer';

/** The party's electronic address: the one given, or its e-mail under scheme `EM` (docs/e-invoice.md "Endpoints"). */
export function endpointOf(party: UblParty): UblEndpoint {
  return party.endpoint ?? { id: party.email ?? '', scheme: 'EM' };
}

const withCountryPrefix = (tin: string) => `${DEFAULT_COUNTRY}${tin.trim()}`;

export function writeParty(parent: XmlNode, document: UblDocument, role: Role): void {
  const party = role === 'supplier' ? document.supplier : document.customer;
  const subjectToVat = document.lines.every((line) => line.category !== 'O');
  const node = aggregate(
    aggregate(parent, role === 'supplier' ? 'AccountingSupplierParty' : 'AccountingCustomerParty'),
    'Party',
  );
  const endpoint = endpointOf(party);
  basic(node, 'EndpointID', endpoint.id, { schemeID: endpoint.scheme });
  if (!subjectToVat && party.tin?.trim()) basic(aggregate(node, 'PartyIdentification'), 'ID', party.tin);
  if (party.tradingName?.trim() && party.tradingName.trim() !== party.name.trim())
    basic(aggregate(node, 'PartyName'), 'Name', party.tradingName);
  writeAddress(aggregate(node, 'PostalAddress'), party.address);
  if (party.tin?.trim() && (subjectToVat || role === 'supplier')) {
    const taxScheme = aggregate(node, 'PartyTaxScheme');
    basic(taxScheme, 'CompanyID', withCountryPrefix(party.tin));
    basic(aggregate(taxScheme, 'TaxScheme'), 'ID', subjectToVat ? 'VAT' : 'TAX');
  }
  const legal = aggregate(node, 'PartyLegalEntity');
  basic(legal, 'RegistrationName', party.name);
  basic(legal, 'CompanyID', party.registrationNumber);
  if (party.phone?.trim() || party.email?.trim()) {
    const contact = aggregate(node, 'Contact');
    basic(contact, 'Telephone', party.phone);
    basic(contact, 'ElectronicMail', party.email);
  }
}

/** Two street lines, then every further line joined as the third (an address has one third line). */
function writeAddress(node: XmlNode, address: UblAddress): void {
  const lines = address.lines.map((line) => line.trim()).filter(Boolean);
  basic(node, 'StreetName', lines[0]);
  basic(node, 'AdditionalStreetName', lines[1]);
  basic(node, 'CityName', address.city);
  basic(node, 'PostalZone', address.postalZone);
  basic(node, 'CountrySubentity', address.region);
  if (lines.length > 2) basic(aggregate(node, 'AddressLine'), 'Line', lines.slice(2).join(', '));
  basic(aggregate(node, 'Country'), 'IdentificationCode', address.countryCode ?? DEFAULT_COUNTRY);
}

/** A credit transfer into the merchant's account, the document's number as the remittance reference. */
export function writePaymentMeans(parent: XmlNode, document: UblDocument): void {
  const account = document.payeeAccount;
  if (document.type !== 'Invoice' || !account?.accountNumber.trim()) return;
  const means = aggregate(parent, 'PaymentMeans');
  basic(means, 'PaymentMeansCode', '30', { name: 'Credit transfer' });
  basic(means, 'PaymentID', document.number);
  const payee = aggregate(means, 'PayeeFinancialAccount');
  basic(payee, 'ID', account.accountNumber);
  basic(payee, 'Name', account.accountName);
  if (account.bank?.trim()) basic(aggregate(payee, 'FinancialInstitutionBranch'), 'ID', account.bank);
}

/** The terms as written; without them, a sentence that gives an amount due its due date or its reason. */
export function writePaymentTerms(parent: XmlNode, document: UblDocument): void {
  basic(aggregate(parent, 'PaymentTerms'), 'Note', paymentTermsText(document));
}

export function paymentTermsText(document: UblDocument): string {
  if (document.paymentTerms?.trim()) return document.paymentTerms;
  const credited = document.creditedInvoice;
  if (credited) return `Credit against invoice ${credited.number} of ${toIsoDate(credited.issueDate)}`;
  return document.dueDate ? `Payment due by ${toIsoDate(document.dueDate)}` : 'Payment due on receipt';
}
