/**
 * The invoice function (docs/api.md "Endpoints"): invoices, clients and the invoice's page and PDFs, paying it online
 * (docs/getting-paid-online.md), recurring invoices (docs/recurring-invoices.md), one route table entry each (shared/routes.ts).
 */
import { createApiFunction } from '../../shared/http/api-function.ts';
import {
  addClientRoute,
  createVirtualAccountRoute,
  deleteClientRoute,
  forgetClientCardRoute,
  getClientRoute,
  listClientsRoute,
  refundClientCreditRoute,
  sendClientStatementRoute,
  updateClientRoute,
} from './client-routes.ts';
import { creditNotePdfRoute, creditNoteUblRoute } from './credit-note-document-routes.ts';
import { hostedPageRoute, hostedPdfRoute, invoicePdfRoute, invoiceUblRoute } from './document-routes.ts';
import {
  addInvoiceRoute,
  createCreditNoteRoute,
  deleteInvoiceRoute,
  emailInvoiceRoute,
  getInvoiceRoute,
  invoiceRemindersRoute,
  sendInvoiceRoute,
} from './invoice-routes.ts';
import { hostedPaidRoute, hostedPayRoute, paystackEventRoute } from './payment-routes.ts';
import {
  cancelRecurringRoute,
  createRecurringRoute,
  getRecurringRoute,
  listRecurringRoute,
  pauseRecurringRoute,
  resumeRecurringRoute,
} from './recurring-routes.ts';

export const handler = createApiFunction('invoices', {
  'add-invoice': addInvoiceRoute,
  'get-invoice': getInvoiceRoute,
  'delete-invoice': deleteInvoiceRoute,
  'send-invoice': sendInvoiceRoute,
  'email-invoice': emailInvoiceRoute,
  'invoice-reminders': invoiceRemindersRoute,
  'create-credit-note': createCreditNoteRoute,
  'invoice-pdf': invoicePdfRoute,
  'invoice-ubl': invoiceUblRoute,
  'credit-note-ubl': creditNoteUblRoute,
  'credit-note-pdf': creditNotePdfRoute,
  'hosted-invoice-page': hostedPageRoute,
  'hosted-invoice-pdf': hostedPdfRoute,
  'hosted-invoice-pay': hostedPayRoute,
  'hosted-invoice-paid': hostedPaidRoute,
  'paystack-event': paystackEventRoute,
  'add-client': addClientRoute,
  'list-clients': listClientsRoute,
  'get-client': getClientRoute,
  'update-client': updateClientRoute,
  'delete-client': deleteClientRoute,
  'send-client-statement': sendClientStatementRoute,
  'forget-client-card': forgetClientCardRoute,
  'create-recurring-invoice': createRecurringRoute,
  'list-recurring-invoices': listRecurringRoute,
  'get-recurring-invoice': getRecurringRoute,
  'pause-recurring-invoice': pauseRecurringRoute,
  'resume-recurring-invoice': resumeRecurringRoute,
  'cancel-recurring-invoice': cancelRecurringRoute,
  'create-virtual-account': createVirtualAccountRoute,
  'refund-client-credit': refundClientCreditRoute,
});
