/** The channels a payment is recorded through (docs/api.md "Add payment"). */
export const CHANNELS = ['Cash', 'BankTransfer', 'POS', 'Cheque'] as const;
export type Channel = (typeof CHANNELS)[number];

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
}
