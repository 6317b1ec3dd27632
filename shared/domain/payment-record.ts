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
}
