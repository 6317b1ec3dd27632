/** The answers to the write routes (docs/api.md, SPEC §13): status, message and API object. */
import { success } from '../outcome.ts';
import type {
  ClientAnswers,
  InvoiceAnswers,
  InvoiceDeletionAnswers,
  PaymentAnswers,
  PaymentReversalAnswers,
  SendAnswers,
} from '../services/answers.ts';
import { clientView, invoiceView, paymentView } from './views.ts';

export const INVOICE_CREATED = 'Invoice created successfully.';
export const PAYMENT_RECORDED = 'Payment successful.';
export const INVOICE_DELETED = 'Invoice deleted successfully.';
export const PAYMENT_REVERSED = 'Payment reversed successfully.';
export const INVOICE_QUEUED = 'Invoice queued for sending.';
export const CLIENT_CREATED = 'Client created successfully.';
/** The original service's words for an e-mail it already had (its PHP SDK's tests expect them, with a 2xx). */
export const CLIENT_EXISTS = 'Client already exist.';
export const CLIENT_UPDATED = 'Client updated successfully.';
export const CLIENT_DELETED = 'Client deleted successfully.';

export const invoiceAnswers: InvoiceAnswers = {
  created(invoice, today) {
    const data = invoiceView(invoice, { today, withClient: true });
    return { data, outcome: success(201, data, INVOICE_CREATED) };
  },
};

export const paymentAnswers: PaymentAnswers = {
  recorded(payment, invoice, today) {
    const data = paymentView(payment, invoice, { today });
    return { data, outcome: success(201, data, PAYMENT_RECORDED) };
  },
};

export const paymentReversalAnswers: PaymentReversalAnswers = {
  reversed(payment, invoice, today) {
    const data = paymentView(payment, invoice, { today });
    return { data, outcome: success(200, data, PAYMENT_REVERSED) };
  },
};

export const invoiceDeletionAnswers: InvoiceDeletionAnswers = {
  deleted(invoice, today) {
    const data = invoiceView(invoice, { today, withClient: true });
    return { data, outcome: success(200, data, INVOICE_DELETED) };
  },
};

export const sendAnswers: SendAnswers = {
  queued(invoice, today) {
    const data = invoiceView(invoice, { today, withClient: true });
    return { data, outcome: success(200, data, INVOICE_QUEUED) };
  },
};

const clientAnswer = (status: number, message: string) => (client: Parameters<typeof clientView>[0]) => {
  const data = clientView(client);
  return { data, outcome: success(status, data, message) };
};

export const clientAnswers: ClientAnswers = {
  created: clientAnswer(201, CLIENT_CREATED),
  existing: clientAnswer(200, CLIENT_EXISTS),
  updated: clientAnswer(200, CLIENT_UPDATED),
  deleted: clientAnswer(200, CLIENT_DELETED),
};
