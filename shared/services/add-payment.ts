/** Add payment (SPEC §6): one read, one transaction that rewrites only the small invoice header. */
import { ulid } from 'ulid';
import { NotFoundError, ValidationError, type ApiError } from '../errors';
import { applyPayment } from '../domain/payment';
import { compareDates, formatTimestamp, toEpochSeconds, todayIn } from '../domain/dates';
import type { PaymentRecord } from '../domain/payment-record';
import type { AddPaymentInput } from '../schemas';
import { paymentView } from '../views';
import { tableName } from '../store/client';
import { keys } from '../store/keys';
import { itemOf } from '../store/batch';
import { balanceAttributes, balanceFromItem, detailsFromItem, paymentItem } from '../store/items';
import { IdAllocator } from '../store/sequences';
import { executeWrite, ReadAgain, type WriteResult } from '../store/write-executor';
import { idempotencyRequest } from '../store/idempotency';
import { storedError, storedSuccess, type RequestContext } from './context';

export const PAYMENT_RECORDED = 'Payment successful.';

export async function addPayment(context: RequestContext, input: AddPaymentInput): Promise<WriteResult> {
  const { account } = context;
  const companyId = account.companyId;
  if (compareDates(input.date, todayIn(account.timeZone)) > 0) {
    throw new ValidationError([{ code: 'invalid_date', field: 'date', message: `must not be after today (${account.timeZone}), format MM/DD/YYYY` }]);
  }
  const table = tableName();
  const headerKey = keys.invoiceHeader(input.reference_code);
  const bodyKey = keys.invoiceBody(input.reference_code);
  const paymentIds = new IdAllocator(table, companyId, 'payment');

  try {
    return await executeWrite(
      {
        keys: async () => [headerKey, bodyKey, ...(await paymentIds.keysToRead())],
        settle: (committed) => paymentIds.settle(committed),
        errorResponse: (error: ApiError) => storedError(error, context.requestId),
        decide(items) {
          const header = itemOf(items, headerKey);
          const body = itemOf(items, bodyKey);
          // Another account's invoice is indistinguishable from a missing one.
          if (!header || !body || Number(header.company_id) !== companyId) {
            throw new NotFoundError('invoice_not_found', 'Invoice not found');
          }
          const details = detailsFromItem(body);
          const current = balanceFromItem(header);
          const now = formatTimestamp(new Date());
          const updated = applyPayment(current, input.amount, now);
          const paymentId = paymentIds.claim(items);
          if (!paymentId) throw new ReadAgain();
          const payment: PaymentRecord = {
            id: paymentId.id,
            companyId,
            clientId: details.clientId,
            invoiceId: details.id,
            referenceCode: details.referenceCode,
            amountKobo: input.amount,
            currency: account.currency,
            transactionDate: toEpochSeconds(input.date),
            channel: input.channel as string,
            createdAt: now,
            recordedId: ulid(),
          };
          const balance = balanceAttributes(updated);
          return {
            actions: [
              {
                Update: {
                  TableName: table,
                  Key: headerKey,
                  // The version pins the state the decision was made on; the balance conditions restate the
                  // invariants themselves, so no interleaving can overpay or lose an update.
                  ConditionExpression: 'company_id = :company AND version = :version AND amount_due >= :amount AND amount_due > :zero',
                  UpdateExpression:
                    'SET amount_paid = :amount_paid, amount_due = :amount_due, payment_status = :payment_status, paid_at = :paid_at, version = :next_version, updated_at = :updated_at',
                  ExpressionAttributeValues: {
                    ':company': companyId,
                    ':version': current.version,
                    ':amount': input.amount,
                    ':zero': 0,
                    ':amount_paid': balance.amount_paid,
                    ':amount_due': balance.amount_due,
                    ':payment_status': balance.payment_status,
                    ':paid_at': balance.paid_at,
                    ':next_version': balance.version,
                    ':updated_at': balance.updated_at,
                  },
                },
              },
              { Put: { TableName: table, Item: paymentItem(payment), ConditionExpression: 'attribute_not_exists(PK)' } },
              ...(paymentId.action ? [paymentId.action] : []),
            ],
            response: storedSuccess(201, PAYMENT_RECORDED, paymentView(payment, { details, balance: updated })),
          };
        },
      },
      context.idempotencyKey === undefined ? undefined : idempotencyRequest(companyId, 'add-payment', context.idempotencyKey, input),
    );
  } finally {
    paymentIds.release();
  }
}
