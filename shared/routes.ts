/**
 * The route table, declared once: the CDK stack creates one Lambda function and one HTTP API route
 * per entry, and the local runtime serves the same entries through the same handler modules.
 */
export interface RouteDefinition {
  /** Stable name: used for the function id, the folder under functions/, idempotency scope and logs. */
  name: 'add-invoice' | 'add-payment' | 'payment-history';
  method: 'POST';
  path: '/invoices' | '/payments' | '/payments/history';
  /** Handler module relative to the repository root; it exports `handler`. */
  entry: string;
}

export const ROUTES: readonly RouteDefinition[] = [
  { name: 'add-invoice', method: 'POST', path: '/invoices', entry: 'functions/add-invoice/handler.ts' },
  { name: 'add-payment', method: 'POST', path: '/payments', entry: 'functions/add-payment/handler.ts' },
  { name: 'payment-history', method: 'POST', path: '/payments/history', entry: 'functions/payment-history/handler.ts' },
];

export type RouteName = RouteDefinition['name'];
