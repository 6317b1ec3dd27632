/**
 * What the domain needs to decide about a new invoice, in its own terms: already validated and parsed (amounts
 * in kobo, dates as calendar dates). shared/schemas/ maps a request onto these types (and checks at compile
 * time that its output fits them), so the domain does not depend on the wire format.
 */
import type { CalendarDate } from './dates.ts';
import type { TaxCategory } from './tax.ts';

export type MetadataValue = string | number | boolean;

export type ClientType = 'Customer' | 'Staff' | 'Vendor';

export interface NewClientRequest {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  company_name?: string | undefined;
  address?: string | undefined;
  website?: string | undefined;
  type?: ClientType | undefined;
  settlement_bank?: string | undefined;
  account_number?: string | undefined;
}

export interface InvoiceLineRequest {
  item: string;
  description: string;
  /** In kobo. */
  unit_cost: number;
  quantity: number;
  /** In kobo; at most quantity × unit_cost (docs/tax.md). */
  discount?: number | undefined;
  tax?: TaxCategory | undefined;
}

export interface InvoiceRequest {
  client?: NewClientRequest | undefined;
  client_id?: number | undefined;
  due_date: CalendarDate;
  fee_bearer: 'account' | 'client';
  items: InvoiceLineRequest[];
  tokenize?: boolean | undefined;
  card_token?: string | undefined;
  recipient?: 'account' | 'wallet' | undefined;
  recipient_id?: string | undefined;
  merchant_ref?: string | undefined;
  metadata?: Record<string, MetadataValue> | undefined;
  /** Default: today in the account's time zone; never after `due_date` (docs/tax.md "Documents"). */
  issue_date?: CalendarDate | undefined;
  notes?: string | undefined;
  terms?: string | undefined;
  reminders_paused?: boolean | undefined;
}
