/**
 * The e-invoice's own model (docs/e-invoice.md "The model"): what a UBL Invoice or CreditNote says, in the project's
 * terms — kobo, calendar dates, a TIN without its country prefix. The renderer (./xml.ts, loaded by ../engines.ts) derives every amount the
 * document shows from the lines (./amounts.ts), so the totals always add up; nothing here is XML.
 */
import type { CalendarDate } from '../../domain/dates.ts';

export type UblDocumentType = 'Invoice' | 'CreditNote';

/**
 * The VAT category of a line: `S` standard rate, `Z` zero-rated, `E` exempt, `O` not subject to VAT (the account's
 * VAT setting `off`). `O` cannot be mixed with the others on one document.
 */
export type VatCategory = 'S' | 'Z' | 'E' | 'O';

/** Units of measure (UN/ECE Recommendation 20) the renderer accepts; `C62` ("one") when a line names none. */
export type UnitCode = 'C62' | 'EA' | 'H87' | 'HUR' | 'DAY' | 'MON' | 'KGM' | 'LTR' | 'MTR';

/** An electronic address: an identifier and its scheme from the Electronic Address Scheme list (`0088` GLN, `EM`…). */
export interface UblEndpoint {
  id: string;
  scheme: string;
}

export interface UblAddress {
  /** Street lines as typed: the first two are the street and additional street, any others join the third line. */
  lines: string[];
  city?: string;
  postalZone?: string;
  /** The state (`Lagos`). */
  region?: string;
  /** ISO 3166-1 alpha-2; `NG` when absent. */
  countryCode?: string;
}

export interface UblParty {
  /** The legal (registered) name. */
  name: string;
  /** A trading name, shown only when it differs from `name`. */
  tradingName?: string;
  /** The Nigerian TIN as issued (digits and hyphens, no `NG`): the document writes `NG` + TIN. */
  tin?: string;
  /** The company registration (RC) number, when known. */
  registrationNumber?: string;
  address: UblAddress;
  email?: string;
  phone?: string;
  /** The party's electronic address; when absent, its e-mail with scheme `EM` (docs/e-invoice.md "Endpoints"). */
  endpoint?: UblEndpoint;
}

export interface UblLine {
  /** The line's identifier within the document (`1`, `2`, …), unique. */
  id: string;
  name: string;
  description?: string;
  /** A whole number of units, above zero. */
  quantity: number;
  unitCode?: UnitCode;
  /** The price of one unit as the merchant entered it: without VAT, or with VAT when `pricesIncludeVat`. */
  unitPriceKobo: number;
  /** A discount on the line (same basis as the price), at most quantity × price; 0 or absent: none. */
  discountKobo?: number;
  category: VatCategory;
  /** The VAT rate in percent as a decimal string (`7.5`) for `S`; `Z` and `E` are 0; `O` has none. */
  ratePercent?: string;
}

/** The merchant's bank account the client pays into (a credit transfer). */
export interface UblPayeeAccount {
  accountNumber: string;
  accountName?: string;
  /** The bank as the merchant named it (a name or a CBN bank code). */
  bank?: string;
}

/** The invoice a credit note corrects. */
export interface UblCreditedInvoice {
  number: string;
  issueDate: CalendarDate;
}

export interface UblDocument {
  type: UblDocumentType;
  /** The document's `number` (`INV-000001`, `CN-000001`). */
  number: string;
  issueDate: CalendarDate;
  /** The payment due date of an invoice (a credit note has none). */
  dueDate?: CalendarDate;
  /** ISO 4217; the API's invoices are `NGN`. */
  currency: string;
  /** Whether `unitPriceKobo` and `discountKobo` include VAT (the account's VAT setting `inclusive`). */
  pricesIncludeVat: boolean;
  /** The invoice's notes (one note at most on the document). */
  note?: string;
  /** Payment terms as text (the invoice's `terms`). */
  paymentTerms?: string;
  /** The buyer's reference; when absent and no order reference is given, the invoice's number stands in. */
  buyerReference?: string;
  orderReference?: string;
  /** Nigeria's e-invoice reference number, when the account has a service id. */
  irn?: string;
  supplier: UblParty;
  customer: UblParty;
  payeeAccount?: UblPayeeAccount;
  /** What the client paid before this document was rendered; 0 or absent: nothing. */
  prepaidKobo?: number;
  lines: UblLine[];
  /** For a credit note: the invoice it credits. */
  creditedInvoice?: UblCreditedInvoice;
  /** Why the exempt (`E`) lines are exempt; `Exempt from VAT` when absent. */
  exemptionReason?: string;
}

/** The Peppol BIS Billing 3.0 specification identifier and business process (docs/e-invoice.md "Identifiers"). */
export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** Commercial invoice (380) and credit note (381), UNTDID 1001. */
export const TYPE_CODES: Record<UblDocumentType, string> = { Invoice: '380', CreditNote: '381' };

export const DEFAULT_COUNTRY = 'NG';
export const DEFAULT_UNIT: UnitCode = 'C62';
export const DEFAULT_EXEMPTION_REASON = 'Exempt from VAT';
export const NOT_SUBJECT_REASON = 'Not subject to VAT';
/** What the IRN's document reference is called on the document. */
export const IRN_DESCRIPTION = 'IRN (Invoice Reference Number)';
