/**
 * Domain records ↔ DynamoDB items: clients and payments (an invoice's are store/invoices.ts'). Attribute names are
 * snake_case; keys come from keys.ts only.
 */

import { contactFields } from '../domain/client.ts';
import { fromEpochSeconds, toIsoDate } from '../domain/dates.ts';
import type { ClientRecord } from '../domain/invoice.ts';
import type { OnlinePayment, PaymentRecord } from '../domain/payment-record.ts';
import { clientIndexKeys, keys, paymentIndexKeys } from './keys.ts';

export type Item = Record<string, unknown>;

export function clientAttributes(client: ClientRecord): Item {
  return {
    client_id: client.id,
    company_id: client.companyId,
    name: client.name,
    ...contactFields(client),
    client_type: client.type,
    settlement_bank: client.settlementBank,
    account_name: client.accountName,
    account_number: client.accountNumber,
    created_at: client.createdAt,
    updated_at: client.updatedAt,
    ...(client.deletedAt === null ? {} : { deleted_at: client.deletedAt }),
  };
}

export function clientFromAttributes(item: Item): ClientRecord {
  return {
    id: Number(item.client_id),
    companyId: Number(item.company_id),
    name: String(item.name ?? ''),
    firstName: String(item.first_name ?? ''),
    lastName: String(item.last_name ?? ''),
    email: String(item.email ?? ''),
    phone: String(item.phone ?? ''),
    website: String(item.website ?? ''),
    address: String(item.address ?? ''),
    type: String(item.client_type ?? 'Customer'),
    settlementBank: String(item.settlement_bank ?? ''),
    accountName: String(item.account_name ?? ''),
    accountNumber: String(item.account_number ?? ''),
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
    deletedAt: typeof item.deleted_at === 'string' ? item.deleted_at : null,
  };
}

/** A client by id; only a live client is in the index (GSI1), so `GET /clients` never lists a deleted one. */
export const clientItem = (client: ClientRecord): Item => ({
  ...keys.client(client.companyId, client.id),
  ...(client.deletedAt === null
    ? {
        GSI1PK: clientIndexKeys.partition(client.companyId),
        GSI1SK: clientIndexKeys.sort(client.createdAt, client.id),
      }
    : {}),
  entity: 'client',
  ...clientAttributes(client),
});
export const clientEmailItem = (client: ClientRecord): Item => ({
  ...keys.clientEmail(client.companyId, client.email),
  entity: 'client_email',
  ...clientAttributes(client),
});

export function paymentItem(payment: PaymentRecord): Item {
  return {
    ...keys.payment(payment.companyId, payment.id),
    GSI1PK: paymentIndexKeys.partition(payment.companyId),
    GSI1SK: paymentIndexKeys.sort(toIsoDate(fromEpochSeconds(payment.transactionDate)), payment.recordedId),
    entity: 'payment',
    ...paymentAttributes(payment),
  };
}

/** A payment's own attributes: its item, and the copy an invoice header keeps of its latest payment. */
export function paymentAttributes(payment: PaymentRecord): Item {
  return {
    payment_id: payment.id,
    company_id: payment.companyId,
    client_id: payment.clientId,
    invoice_id: payment.invoiceId,
    reference_code: payment.referenceCode,
    amount: payment.amountKobo,
    currency: payment.currency,
    transaction_date: payment.transactionDate,
    channel: payment.channel,
    created_at: payment.createdAt,
    recorded_id: payment.recordedId,
    ...(payment.viewBytes === undefined ? {} : { view_bytes: payment.viewBytes }),
    ...(payment.previousPaymentId === undefined ? {} : { previous_payment_id: payment.previousPaymentId }),
    ...(payment.inTotals ? { in_totals: true } : {}),
    ...(payment.inTaxReport ? { in_tax_report: true } : {}),
    ...(payment.reversal ? { reversed_at: payment.reversal.reversedAt, reversal_reason: payment.reversal.reason } : {}),
    ...onlineAttributes(payment.online),
    ...(payment.whtKobo ? { wht: payment.whtKobo } : {}),
    ...(payment.whtReference === undefined ? {} : { wht_reference: payment.whtReference }),
  };
}

export function paymentFromItem(item: Item): PaymentRecord {
  return {
    id: Number(item.payment_id),
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    invoiceId: Number(item.invoice_id),
    referenceCode: String(item.reference_code),
    amountKobo: Number(item.amount),
    currency: String(item.currency),
    transactionDate: Number(item.transaction_date),
    channel: String(item.channel),
    createdAt: String(item.created_at),
    recordedId: String(item.recorded_id),
    ...(typeof item.view_bytes === 'number' ? { viewBytes: item.view_bytes } : {}),
    ...(typeof item.previous_payment_id === 'number' ? { previousPaymentId: item.previous_payment_id } : {}),
    ...(item.in_totals === true ? { inTotals: true } : {}),
    ...(item.in_tax_report === true ? { inTaxReport: true } : {}),
    ...(typeof item.reversed_at === 'string'
      ? { reversal: { reversedAt: item.reversed_at, reason: String(item.reversal_reason ?? '') } }
      : {}),
    ...onlineFromItem(item),
    ...(typeof item.wht === 'number' && item.wht > 0 ? { whtKobo: item.wht } : {}),
    ...(typeof item.wht_reference === 'string' ? { whtReference: item.wht_reference } : {}),
  };
}

/**
 * What an online payment adds to its payment item (and to the copy an invoice header keeps of its latest payment):
 * one map attribute `online` (docs/data-design.md "Getting paid online"). Manual payments have none.
 */
export function onlineAttributes(online: OnlinePayment | undefined): Item {
  if (!online) return {};
  const { refund, card, sender, allocation } = online;
  return {
    online: {
      ...(sender ? { sender: { name: sender.name, bank: sender.bank, account_last4: sender.accountLast4 } } : {}),
      ...(allocation ? { allocation } : {}),
      transaction_id: online.transactionId,
      reference: online.reference,
      gateway_response: online.gatewayResponse,
      message: online.message,
      amount_charged: online.amountChargedKobo,
      fees: online.feesKobo,
      ...(refund ? { refund: { amount: refund.amountKobo, status: refund.status, id: refund.id } } : {}),
      ...(card
        ? {
            card: {
              token: card.token,
              brand: card.brand,
              last4: card.last4,
              exp_month: card.expMonth,
              exp_year: card.expYear,
            },
          }
        : {}),
    },
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function onlineFromItem(item: Item): { online?: OnlinePayment } {
  const online = item.online;
  if (!online || typeof online !== 'object') return {};
  const map = online as Item;
  const refund = map.refund as Item | undefined;
  const card = map.card as Item | undefined;
  const sender = map.sender as Item | undefined;
  return {
    online: {
      ...(sender
        ? { sender: { name: text(sender.name), bank: text(sender.bank), accountLast4: text(sender.account_last4) } }
        : {}),
      ...(typeof map.allocation === 'string' ? { allocation: map.allocation } : {}),
      transactionId: text(map.transaction_id),
      reference: text(map.reference),
      gatewayResponse: text(map.gateway_response),
      message: text(map.message),
      amountChargedKobo: Number(map.amount_charged ?? 0),
      feesKobo: Number(map.fees ?? 0),
      ...(refund
        ? {
            refund: {
              amountKobo: Number(refund.amount),
              status: text(refund.status),
              id: typeof refund.id === 'string' ? refund.id : null,
            },
          }
        : {}),
      ...(card
        ? {
            card: {
              token: text(card.token),
              brand: text(card.brand),
              last4: text(card.last4),
              expMonth: text(card.exp_month),
              expYear: text(card.exp_year),
            },
          }
        : {}),
    },
  };
}
