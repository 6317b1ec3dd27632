/**
 * What an online payment adds to its payment item (and to the copy an invoice header keeps of its latest payment):
 * one map attribute `online` (docs/data-design.md "Getting paid online"). Manual payments have none.
 */
import type { OnlinePayment } from '../domain/payment-record.ts';
import type { Item } from './items.ts';

export function onlineAttributes(online: OnlinePayment | undefined): Item {
  if (!online) return {};
  const { refund, card } = online;
  return {
    online: {
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
  return {
    online: {
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
