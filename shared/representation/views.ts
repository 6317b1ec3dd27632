/**
 * The API objects: the response shapes existing client SDKs read, kept exactly (types, string quirks, nulls vs empty
 * strings), plus the additive fields of docs/api.md "Add invoice". The only place domain records become API JSON;
 * the answers (representation/answers.ts), the histories and the wake sweep show records through these.
 */

import { contactFields } from '../domain/client.ts';
import type { CalendarDate } from '../domain/dates.ts';
import type { ClientRecord, Invoice, InvoiceDetails } from '../domain/invoice.ts';
import { formatKobo } from '../domain/money.ts';
import { displayedPaymentStatus } from '../domain/overdue.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import type { Totals } from '../domain/period-totals.ts';
import { hostedUrlOrNull } from '../hosted-url.ts';

export function clientView(client: ClientRecord) {
  return {
    id: client.id,
    company_id: client.companyId,
    name: client.name,
    // Also under the request's key: jPayant's ClientObject reads `company_name` (like `item` beside `name` on items).
    company_name: client.name,
    ...contactFields(client),
    type: client.type,
    settlement_bank: client.settlementBank,
    account_name: client.accountName,
    account_number: client.accountNumber,
    status: '1',
    created_at: client.createdAt,
    updated_at: client.updatedAt,
    deleted_at: client.deletedAt,
  };
}

function itemViews(details: InvoiceDetails, deletedAt: string | null) {
  return details.lines.map((line) => ({
    id: line.id,
    company_id: String(details.companyId),
    client_id: String(details.clientId),
    name: line.name,
    item: line.name,
    description: line.description,
    quantity: String(line.quantity),
    unit_cost: formatKobo(line.unitCostKobo),
    status: '0',
    due_date: String(details.dueDate),
    created_at: details.createdAt,
    updated_at: deletedAt ?? details.createdAt,
    deleted_at: deletedAt,
  }));
}

/**
 * How an invoice is shown on `today` — the account's calendar date for overdue (`todayForOverdue` of the request's
 * context, shared/services/context.ts), which decides whether `payment_status` is `overdue` (domain/overdue.ts).
 */
export interface ViewOptions {
  today: CalendarDate;
}

/** An invoice with its items; `withClient` adds the `client` object (create-invoice response). */
export function invoiceView(invoice: Invoice, options: ViewOptions & { withClient?: boolean }) {
  const { details, balance } = invoice;
  const view: Record<string, unknown> = {
    id: details.id,
    company_id: String(details.companyId),
    client_id: String(details.clientId),
    reference_code: details.referenceCode,
    payment_id: null,
    fee_bearer: details.feeBearer,
    // The latest send's state (docs/sending-invoices.md): `unsent` until the invoice is first sent.
    mail_status: balance.mail?.status ?? 'unsent',
    status: '0',
    due_date: String(details.dueDate),
    created_at: details.createdAt,
    updated_at: balance.updatedAt,
    deleted_at: balance.deletedAt,
    items: itemViews(details, balance.deletedAt),
    total: formatKobo(balance.totalKobo),
    amount_paid: formatKobo(balance.amountPaidKobo),
    amount_due: formatKobo(balance.amountDueKobo),
    payment_status: displayedPaymentStatus(balance, details.dueDate, options.today),
    paid_at: balance.paidAt,
    currency: details.currency,
    sent_at: balance.mail?.sentAt ?? null,
    mail_error: balance.mail?.error ?? null,
    hosted_url: hostedUrlOrNull(details.hostedToken),
    // docs/receivables.md "Reminders": each one sent (its offset from the due date, when it was queued), and the pause.
    reminders: (balance.reminders?.sent ?? []).map((record) => ({ offset: record.offset, sent_at: record.sentAt })),
    reminders_paused: balance.reminders?.paused ?? false,
  };
  if (details.merchantRef !== undefined) view.merchant_ref = details.merchantRef;
  if (details.recipient !== undefined) view.recipient = details.recipient;
  if (details.recipientId !== undefined) view.recipient_id = details.recipientId;
  if (details.tokenize !== undefined) view.tokenize = String(details.tokenize);
  if (details.metadata !== undefined) view.metadata = details.metadata;
  if (details.cardToken !== undefined) view.card_token_last4 = details.cardToken.slice(-4);
  if (options.withClient) view.client = clientView(details.client);
  return view;
}

/**
 * A payment with its client and its invoice (current state, with items); `paymentsCount` adds `invoice.payments_count`.
 */
export function paymentView(
  payment: PaymentRecord,
  invoice: Invoice,
  options: ViewOptions & { paymentsCount?: boolean },
) {
  return {
    id: payment.id,
    company_id: String(payment.companyId),
    client_id: String(payment.clientId),
    invoice_id: String(payment.invoiceId),
    expense_id: '',
    amount: formatKobo(payment.amountKobo),
    currency: payment.currency,
    transaction_date: String(payment.transactionDate),
    status: paymentStatusOf(payment),
    reference_code: payment.referenceCode,
    ...gatewayFields(payment),
    channel: payment.channel,
    type: 'Invoice',
    created_at: payment.createdAt,
    updated_at: payment.reversal?.reversedAt ?? payment.createdAt,
    ...(payment.reversal ? { reversed_at: payment.reversal.reversedAt, reversal_reason: payment.reversal.reason } : {}),
    ...onlineFields(payment),
    client: clientView(invoice.details.client),
    invoice: options.paymentsCount
      ? { ...invoiceView(invoice, { today: options.today }), payments_count: invoice.balance.paymentsCount }
      : invoiceView(invoice, { today: options.today }),
  };
}

/**
 * `reversed` once reversed; `refunded` for an online payment the invoice could take nothing of (voided or already paid:
 * its whole amount is refunded, docs/getting-paid-online.md "Refunds"); else `success`.
 */
const paymentStatusOf = (payment: PaymentRecord): string =>
  payment.reversal ? 'reversed' : payment.online && payment.amountKobo === 0 ? 'refunded' : 'success';

/** The gateway's fields: empty for manually recorded payments, Paystack's for online ones. */
function gatewayFields(payment: PaymentRecord) {
  const { online } = payment;
  return {
    payment_id: online?.transactionId ?? '',
    referrer: online?.reference ?? '',
    gateway_response: online?.gatewayResponse ?? '',
    message: online?.message ?? '',
  };
}

/** What only an online payment carries (docs/getting-paid-online.md "The payment"): absent on manual payments. */
function onlineFields(payment: PaymentRecord) {
  const { online } = payment;
  if (!online) return {};
  const { refund, card } = online;
  return {
    amount_charged: formatKobo(online.amountChargedKobo),
    fees: formatKobo(online.feesKobo),
    ...(refund ? { refund: { amount: formatKobo(refund.amountKobo), status: refund.status, id: refund.id } } : {}),
    ...(card
      ? {
          card_token: card.token,
          card: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear },
        }
      : {}),
  };
}

/**
 * Payment history's `data.summary` (docs/api.md "Payment history and pagination"): the effective range's
 * non-reversed payments, and what was reversed.
 */
export function summaryView(totals: Totals, currency: string) {
  const { byChannelKobo } = totals;
  return {
    count: totals.count,
    total: formatKobo(totals.totalKobo),
    by_channel: {
      Cash: formatKobo(byChannelKobo.Cash),
      BankTransfer: formatKobo(byChannelKobo.BankTransfer),
      POS: formatKobo(byChannelKobo.POS),
      Cheque: formatKobo(byChannelKobo.Cheque),
      Card: formatKobo(byChannelKobo.Card),
      USSD: formatKobo(byChannelKobo.USSD),
      Other: formatKobo(byChannelKobo.Other),
    },
    reversed_total: formatKobo(totals.reversedTotalKobo),
    currency,
  };
}
