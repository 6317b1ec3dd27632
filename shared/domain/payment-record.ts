/** The channels a payment is recorded through (docs/api.md "Add payment"). */
export const CHANNELS = ['Cash', 'BankTransfer', 'POS', 'Cheque'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * The channels period totals count by name (docs/api.md "Payment history and pagination"): the manual ones, and those
 * an online payment adds (docs/getting-paid-online.md "The payment"); any other channel Paystack reports counts as
 * `Other`.
 */
export const TOTALS_CHANNELS = [...CHANNELS, 'Card', 'USSD', 'Other'] as const;
export type TotalsChannel = (typeof TOTALS_CHANNELS)[number];

/** A refund of (part of) an online payment through Paystack (docs/getting-paid-online.md "Refunds"). */
export interface OnlineRefund {
  amountKobo: number;
  /** `pending` until Paystack has it (its refund API is called by the refund job), then Paystack's status. */
  status: string;
  /** Paystack's refund id, once it has one. */
  id: string | null;
}

/** The card a payment was made with, when the client's card was saved (the invoice's `tokenize`). */
export interface PaymentCard {
  /** The service's own token of the saved card (`ctok_…`). */
  token: string;
  brand: string;
  last4: string;
  expMonth: string;
  expYear: string;
}

/** What an online payment carries beyond a manual one (docs/getting-paid-online.md "The payment"). */
export interface OnlinePayment {
  /** Paystack's transaction id: the payment's `payment_id`. */
  transactionId: string;
  /** The checkout reference: the payment's `referrer`. */
  reference: string;
  gatewayResponse: string;
  message: string;
  /** What Paystack charged (the payment's `amount` is what the invoice was credited). */
  amountChargedKobo: number;
  /** Paystack's processing fee on the charge, as it reported it. */
  feesKobo: number;
  refund?: OnlineRefund;
  card?: PaymentCard;
  /** Who sent a bank transfer to the client's virtual account (docs/bank-transfers.md "Matching"). */
  sender?: TransferSender;
  /** How a transfer was matched to this invoice: `narration`, `exact_amount` or `oldest_due`. */
  allocation?: string;
}

/** The sender of a bank transfer as Paystack reports it: only the last 4 digits of their account are kept. */
export interface TransferSender {
  name: string;
  bank: string;
  accountLast4: string;
}

/** A payment recorded by mistake is reversed, never deleted (docs/api.md "Reversing a payment"). */
export interface Reversal {
  /** YYYY-MM-DD HH:MM:SS (UTC). */
  reversedAt: string;
  reason: string;
}

/** A recorded payment as stored. */
export interface PaymentRecord {
  id: number;
  companyId: number;
  clientId: number;
  invoiceId: number;
  referenceCode: string;
  amountKobo: number;
  currency: string;
  /** Unix seconds of 00:00 UTC of the payment date. */
  transactionDate: number;
  channel: string;
  createdAt: string;
  /** ULID of the moment it was recorded: orders same-day payments in history. */
  recordedId: string;
  /**
   * Bytes of the payment's JSON (with its invoice and client) when it was recorded: a history page plans its invoice
   * reads with it (docs/data-design.md). Absent on payments recorded before it was stored.
   */
  viewBytes?: number;
  /** Set once the payment is reversed; a reversed payment stays listed (docs/api.md "Reversing a payment"). */
  reversal?: Reversal;
  /**
   * The invoice's latest payment when this one was recorded (absent on the first, and on payments recorded before
   * it was stored): reversing the latest payment makes the newest non-reversed one before it the latest again.
   */
  previousPaymentId?: number;
  /** Counted in its day's totals (every payment recorded since totals are kept; older ones once migrated). */
  inTotals?: boolean;
  /** Its withholding tax is counted in the tax report's rows (docs/tax.md "Tax report"); unset on older payments. */
  inTaxReport?: boolean;
  /** Set on a payment recorded from Paystack; absent on manual ones. */
  online?: OnlinePayment;
  /**
   * Withholding tax the client deducted (docs/tax.md "Withholding tax"): the invoice was credited `amountKobo` + this.
   * Absent when none was withheld.
   */
  whtKobo?: number;
  /** The client's withholding tax receipt or certificate number, when given. */
  whtReference?: string;
}

/** What a payment credited its invoice: what was paid and what was withheld. */
export const creditedKobo = (payment: Pick<PaymentRecord, 'amountKobo' | 'whtKobo'>): number =>
  payment.amountKobo + (payment.whtKobo ?? 0);
