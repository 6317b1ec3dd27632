/**
 * A client's statement as its client reads it (docs/receivables.md "One client: the statement"), as a pure value: the PDF and the
 * e-mail are rendered from it. Built from the domain statement, the client, the merchant and the period's effective
 * range; amounts as people read them (`₦1,500.00`), dates in words. The JSON and CSV answers are the API's own
 * (shared/representation/report-views.ts).
 */
import { type CalendarDate, fromIsoDate } from '../domain/dates.ts';
import type { ClientRecord } from '../domain/invoice.ts';
import type { LedgerLineType } from '../domain/receivables.ts';
import type { Statement } from '../domain/statement.ts';
import { type InvoiceDocument, type Merchant, merchantOf, type ShownDate, showDate } from './invoice-document.ts';
import { formatMoney } from './money-format.ts';

export const LINE_TYPE_LABELS: Record<LedgerLineType, string> = {
  invoice: 'Invoice',
  payment: 'Payment',
  reversal: 'Reversal',
  void: 'Void',
  wht: 'Withholding tax',
  credit_note: 'Credit note',
};

export interface StatementDocumentLine {
  date: ShownDate;
  type: string;
  referenceCode: string;
  /** The invoice's number (`INV-000042`), when it has one: the line is titled by it rather than the reference code. */
  number?: string;
  description: string;
  /** Empty when the line has no debit (a credit line), and the other way round. */
  debit: string;
  credit: string;
  balance: string;
}

export interface StatementDocument {
  merchant: InvoiceDocument['merchant'];
  client: { name: string; company?: string };
  from: ShownDate;
  to: ShownDate;
  /** The account's date when the statement was drawn up. */
  drawnUp: ShownDate;
  currency: string;
  opening: string;
  lines: StatementDocumentLine[];
  closing: string;
  /** A statement's file name (`statement-<client id>-<from>-<to>.pdf`): only letters, digits and dashes. */
  fileName: string;
}

export interface StatementDocumentInput {
  merchant: Merchant;
  client: ClientRecord;
  /** The period's effective range, YYYY-MM-DD. */
  range: { from: string; to: string };
  today: CalendarDate;
  currency: string;
  statement: Statement;
}

function clientOf(client: ClientRecord): StatementDocument['client'] {
  const person = `${client.firstName} ${client.lastName}`.trim();
  const company = client.name.trim();
  if (!person) return { name: company };
  return company && company !== person ? { name: person, company } : { name: person };
}

export function statementDocument(input: StatementDocumentInput): StatementDocument {
  const money = (kobo: number) => formatMoney(kobo, input.currency);
  const { statement, range } = input;
  return {
    merchant: merchantOf(input.merchant),
    client: clientOf(input.client),
    from: showDate(fromIsoDate(range.from)),
    to: showDate(fromIsoDate(range.to)),
    drawnUp: showDate(input.today),
    currency: input.currency,
    opening: money(statement.openingKobo),
    lines: statement.lines.map((line) => ({
      date: showDate(fromIsoDate(line.date)),
      type: LINE_TYPE_LABELS[line.type],
      referenceCode: line.referenceCode,
      ...(line.number === undefined ? {} : { number: line.number }),
      description: line.description,
      debit: line.debitKobo === 0 ? '' : money(line.debitKobo),
      credit: line.creditKobo === 0 ? '' : money(line.creditKobo),
      balance: money(line.balanceKobo),
    })),
    closing: money(statement.closingKobo),
    fileName: `statement-${input.client.id}-${range.from}-${range.to}.pdf`,
  };
}
