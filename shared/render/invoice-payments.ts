/**
 * What a client sees of an invoice's payments (docs/getting-paid-online.md "Receipts"): each payment (date, channel,
 * amount; reversed ones marked), the day a paid invoice was paid, and the pay button's amount. Part of the invoice
 * document (./invoice-document.ts), so the page and the PDF agree.
 */
import { type CalendarDate, fromEpochSeconds, localDateOf } from '../domain/dates.ts';
import type { PaymentReceipt } from '../domain/receipt.ts';
import type { ShownDate } from './invoice-document.ts';

export interface DocumentReceipt {
  date: ShownDate;
  /** The channel as people read it (`Bank transfer`, `Card`…). */
  channel: string;
  /** What the invoice was credited. */
  amount: string;
  reversed: boolean;
  /** An online payment of which money goes back: what was received, and what is refunded. */
  refund?: { received: string; refunded: string };
}

/** The pay button: the amount the checkout charges, and where the form posts (the page's own path + `/pay`). */
export interface PayOnline {
  amount: string;
  action: string;
  /** The processing fee the amount includes, when the client bears it. */
  fee?: string;
}

export interface DocumentPayments {
  receipts: DocumentReceipt[];
  /** The day a paid invoice was paid (account time zone). */
  paidOn?: ShownDate;
  payOnline?: PayOnline;
}

export interface PaymentsInput {
  receipts: readonly PaymentReceipt[];
  /** When the invoice became paid (`paid_at`, UTC), or null. */
  paidAt: string | null;
  /** Offered when the invoice can be paid online: the checkout amount, and the hosted page's URL. */
  payOnline?: { amountKobo: number; feeKobo: number; hostedUrl: string };
}

const CHANNEL_LABELS: Record<string, string> = {
  BankTransfer: 'Bank transfer',
  Cash: 'Cash',
  POS: 'POS',
  Cheque: 'Cheque',
  Card: 'Card',
  USSD: 'USSD',
};

export const channelLabel = (channel: string): string => CHANNEL_LABELS[channel] ?? channel;

/** How the document shows money and dates (./invoice-document.ts), and the merchant's time zone. */
export interface Shown {
  money: (kobo: number) => string;
  date: (date: CalendarDate) => ShownDate;
  timeZone: string;
}

/** The payments part of the document. */
export function documentPayments(input: PaymentsInput, { money, date: showDate, timeZone }: Shown): DocumentPayments {
  const receipts = [...input.receipts]
    .sort((a, b) => (a.recordedId < b.recordedId ? -1 : 1))
    .map(
      (receipt): DocumentReceipt => ({
        date: showDate(fromEpochSeconds(receipt.transactionDate)),
        channel: channelLabel(receipt.channel),
        amount: money(receipt.amountKobo),
        reversed: receipt.reversedAt !== undefined,
        ...(receipt.refundKobo
          ? { refund: { received: money(receipt.amountChargedKobo ?? 0), refunded: money(receipt.refundKobo) } }
          : {}),
      }),
    );
  const { payOnline } = input;
  return {
    receipts,
    ...(input.paidAt ? { paidOn: showDate(localDateOf(input.paidAt, timeZone)) } : {}),
    ...(payOnline
      ? {
          payOnline: {
            amount: money(payOnline.amountKobo),
            action: `${new URL(payOnline.hostedUrl).pathname}/pay`,
            ...(payOnline.feeKobo > 0 ? { fee: money(payOnline.feeKobo) } : {}),
          },
        }
      : {}),
  };
}
