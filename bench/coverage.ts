/**
 * Where the bench measures each route of the route table (shared/routes.ts): the endpoint rows that send it
 * (bench/endpoint-defs.ts, measured against their floor) and the phases whose budgets cover it (bench/phases/).
 * Typed by `RouteName`, so a new route does not compile until it is given a row or a phase here, and
 * test/bench/coverage.test.ts checks that every row and phase named exists (docs/performance.md "Adding a row").
 */
import type { RouteName } from '../shared/routes.ts';

export interface Coverage {
  /** Names of rows of `endpointDefs`. */
  rows?: string[];
  /** Files of bench/phases/ (without `.ts`) whose budgets cover the route. */
  phases?: string[];
  /** Why the route has no row of its own: another route's row measures the same service, or none does yet. */
  note?: string;
}

export const ROUTE_COVERAGE: Record<RouteName, Coverage> = {
  'add-invoice': { rows: ['add invoice (new client)', 'add invoice (client_id)', 'add invoice (VAT, 100 lines)'] },
  'get-invoice': { rows: ['get invoice'] },
  'delete-invoice': { rows: ['delete invoice'] },
  'send-invoice': {
    rows: ['send invoice (enqueue)'],
    note: 'the row sends POST /invoices/{ref}/send; GET /invoices/send/{ref} calls the same service without a body',
  },
  'email-invoice': { rows: ['send invoice (enqueue)'] },
  'invoice-reminders': { rows: ['pause/resume reminders'] },
  'create-credit-note': { rows: ['credit note'] },
  'invoice-pdf': { phases: ['documents', 'render'] },
  'invoice-ubl': { phases: ['documents'] },
  'credit-note-ubl': { phases: ['documents'] },
  'credit-note-pdf': { phases: ['documents'] },
  'hosted-invoice-page': { rows: ['hosted invoice page'], phases: ['render'] },
  'hosted-invoice-pdf': { phases: ['documents', 'render'] },
  'hosted-invoice-pay': {
    phases: ['online-payments'],
    note: 'against its floor with Paystack’s initialize, timed at the local Paystack server, taken out',
  },
  'hosted-invoice-paid': {
    phases: ['online-payments'],
    note: 'Paystack’s verify taken out; no floor: the route reads the page again after its own transaction',
  },
  'paystack-event': {
    phases: ['online-payments', 'transfers'],
    note:
      'the route against its floor, then the worker’s processing and the payment read back (p50/p99); a ' +
      'dedicated_nuban transfer’s recording to 1 and 50 invoices in the transfers phase',
  },
  'add-client': { rows: ['add client'] },
  'list-clients': { rows: ['list clients page of 100'] },
  'get-client': { rows: ['get client'] },
  'update-client': { rows: ['update client'] },
  'delete-client': { rows: ['delete client'] },
  'send-client-statement': { rows: ['send statement (enqueue)'] },
  'forget-client-card': { phases: ['online-payments'] },
  'create-virtual-account': { note: 'none: two Paystack calls and one conditional put; Paystack dominates' },
  'refund-client-credit': { phases: ['transfers'] },
  'add-payment': { rows: ['add payment'], phases: ['many-tenants', 'webhook-events', 'durability-barrier'] },
  'get-payment': { rows: ['get payment (latest)'] },
  'reverse-payment': { rows: ['reverse payment'] },
  'payment-history': {
    rows: ['history page of 100'],
    phases: ['scale', 'period-totals', 'pages-by-bytes', 'receivables'],
  },
  'invoice-history': { rows: ['invoice history page of 100'] },
  'aging-report': { phases: ['receivables'] },
  'tax-report': { rows: ['tax report (year)'] },
  'client-statement': {
    phases: ['receivables', 'render'],
    note: 'JSON and CSV in the receivables phase; its PDF (Accept: application/pdf) in the render phase',
  },
  'create-recurring-invoice': { phases: ['recurring'] },
  'list-recurring-invoices': { phases: ['recurring'] },
  'get-recurring-invoice': { phases: ['recurring'] },
  'pause-recurring-invoice': { phases: ['recurring'] },
  'resume-recurring-invoice': { phases: ['recurring'] },
  'cancel-recurring-invoice': { phases: ['recurring'] },
};
