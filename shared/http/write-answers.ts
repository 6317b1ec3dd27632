/** The answers to the write routes (docs/api.md "Add invoice", "Add payment"): status, message and API object. */
import { success } from '../outcome.ts';
import type { InvoiceAnswers, PaymentAnswers } from '../services/answers.ts';
import { invoiceView, paymentView } from './views.ts';

export const INVOICE_CREATED = 'Invoice created successfully.';
export const PAYMENT_RECORDED = 'Payment successful.';

export const invoiceAnswers: InvoiceAnswers = {
  created(invoice) {
    const data = invoiceView(invoice, { withClient: true });
    return { data, outcome: success(201, data, INVOICE_CREATED) };
  },
};

export const paymentAnswers: PaymentAnswers = {
  recorded(payment, invoice) {
    const data = paymentView(payment, invoice);
    return { data, outcome: success(201, data, PAYMENT_RECORDED) };
  },
};
