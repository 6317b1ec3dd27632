/**
 * An invoice's receipts (docs/data-design.md "Getting paid online"): one small item per payment in its hosted page's
 * partition (`HOSTED#<token>`, `RECEIPT#<payment ULID>`), put in the payment's transaction, and a marker beside it put
 * by a reversal — the receipt is never rewritten. One Query of the partition reads the page's link and its receipts.
 */
import type { CreditNoteSummary } from '../domain/credit-note-record.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { type PaymentReceipt, receiptOf } from '../domain/receipt.ts';
import type { Item } from './items.ts';
import { HOSTED_RECEIPT_PREFIX, keys, RECEIPT_REVERSAL_SUFFIX } from './keys.ts';
import { queryAll } from './query-all.ts';
import type { TransactItem } from './write-executor.ts';
import { putNew } from './write-executor.ts';

/** The receipt of a new payment on an invoice with a hosted page (none for invoices from before hosted pages). */
export function receiptActions(table: string, hostedToken: string | undefined, payment: PaymentRecord): TransactItem[] {
  if (hostedToken === undefined) return [];
  const receipt = receiptOf(payment);
  return [
    putNew(table, {
      ...keys.hostedReceipt(hostedToken, payment.recordedId),
      entity: 'hosted_receipt',
      company_id: payment.companyId,
      payment_id: receipt.paymentId,
      transaction_date: receipt.transactionDate,
      channel: receipt.channel,
      amount: receipt.amountKobo,
      ...(receipt.amountChargedKobo === undefined ? {} : { amount_charged: receipt.amountChargedKobo }),
      ...(receipt.refundKobo === undefined ? {} : { refund: receipt.refundKobo }),
      ...(receipt.whtKobo === undefined ? {} : { wht: receipt.whtKobo }),
    }),
  ];
}

/** The marker of a reversed payment's receipt (a payment from before receipts leaves a marker nothing reads). */
export function receiptReversalActions(
  table: string,
  hostedToken: string | undefined,
  payment: PaymentRecord,
): TransactItem[] {
  if (hostedToken === undefined || !payment.reversal) return [];
  return [
    putNew(table, {
      ...keys.hostedReceiptReversal(hostedToken, payment.recordedId),
      entity: 'hosted_receipt_reversal',
      company_id: payment.companyId,
      payment_id: payment.id,
      reversed_at: payment.reversal.reversedAt,
    }),
  ];
}

/** A hosted page's partition: its link (undefined when no invoice has the token) and its receipts, oldest first. */
export interface HostedPartition {
  /** `clientId` is absent from links written before they named their client. */
  link: { companyId: number; referenceCode: string; clientId?: number } | undefined;
  receipts: PaymentReceipt[];
  /** The invoice's credit notes' lines (store/credit-notes.ts), in number order. */
  creditNotes: CreditNoteSummary[];
}

/** One consistent Query of `HOSTED#<token>` (a link opened the moment its invoice was created must be found). */
export async function readHostedPartition(token: string): Promise<HostedPartition> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.hostedLink(token).PK },
  });
  return partitionFrom(items);
}

/** An invoice's receipts and credit notes, as its page shows them (none for an invoice without a hosted link). */
export async function readInvoiceReceipts(
  hostedToken: string | undefined,
): Promise<Pick<HostedPartition, 'receipts' | 'creditNotes'>> {
  if (hostedToken === undefined) return { receipts: [], creditNotes: [] };
  const { receipts, creditNotes } = await readHostedPartition(hostedToken);
  return { receipts, creditNotes };
}

function partitionFrom(items: Item[]): HostedPartition {
  const linkItem = items.find((item) => item.SK === keys.hostedLink('').SK);
  const companyId = Number(linkItem?.company_id);
  const referenceCode = linkItem?.reference_code;
  const clientId = typeof linkItem?.client_id === 'number' ? { clientId: linkItem.client_id } : {};
  const link =
    typeof referenceCode === 'string' && Number.isSafeInteger(companyId)
      ? { companyId, referenceCode, ...clientId }
      : undefined;
  const reversals = new Map<string, string>();
  for (const item of items)
    if (item.entity === 'hosted_receipt_reversal') reversals.set(receiptUlid(item), String(item.reversed_at));
  const receipts = items
    .filter((item) => item.entity === 'hosted_receipt')
    .map((item) => receiptFromItem(item, reversals.get(receiptUlid(item))));
  const creditNotes = items
    .filter((item) => item.entity === 'hosted_credit_note')
    .map((item) => ({
      number: String(item.number),
      reason: String(item.reason),
      totalKobo: Number(item.total),
      issueDate: Number(item.issue_date),
    }));
  return { link, receipts, creditNotes };
}

const receiptUlid = (item: Item): string =>
  String(item.SK).slice(HOSTED_RECEIPT_PREFIX.length).replace(RECEIPT_REVERSAL_SUFFIX, '');

function receiptFromItem(item: Item, reversedAt: string | undefined): PaymentReceipt {
  return {
    paymentId: Number(item.payment_id),
    recordedId: receiptUlid(item),
    transactionDate: Number(item.transaction_date),
    channel: String(item.channel),
    amountKobo: Number(item.amount),
    ...(typeof item.amount_charged === 'number' ? { amountChargedKobo: item.amount_charged } : {}),
    ...(typeof item.refund === 'number' ? { refundKobo: item.refund } : {}),
    ...(reversedAt === undefined ? {} : { reversedAt }),
    ...(typeof item.wht === 'number' ? { whtKobo: item.wht } : {}),
  };
}
