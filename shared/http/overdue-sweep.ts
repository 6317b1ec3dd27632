/** The overdue sweep with the API's view of an invoice as its events' `data` (SPEC §14): the deployed function and `npm start` run this. */
import { type SweepReport, sweepOverdue } from '../services/sweep-overdue.ts';
import { invoiceView } from './views.ts';

/** One sweep deciding on `now`'s calendar dates; `invoice.overdue` carries the invoice with `client` and `items`. */
export function runOverdueSweep(now: Date): Promise<SweepReport> {
  return sweepOverdue({ now, render: (invoice, today) => invoiceView(invoice, { today, withClient: true }) });
}
