/**
 * The route table, declared once: the CDK stack creates one Lambda function, one HTTP API route and
 * one least-privilege IAM policy per entry, and the local runtime serves the same entries through
 * the same handler modules.
 */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:Query';

export interface RouteDefinition {
  /** Stable name: function id, folder under functions/, idempotency scope and logs. */
  name: 'add-invoice' | 'add-payment' | 'payment-history';
  method: 'POST';
  path: '/invoices' | '/payments' | '/payments/history';
  /** Handler module relative to the repository root; it exports `handler`. */
  entry: string;
  /**
   * DynamoDB actions the handler performs on the table itself (TransactWriteItems is authorised per action).
   * test/infra/iam-actions.test.ts checks that each list equals what the handler really calls.
   */
  tableActions: readonly TableAction[];
  /** DynamoDB actions the handler performs on the payments index (GSI1). */
  indexActions: readonly TableAction[];
}

export const ROUTES: readonly RouteDefinition[] = [
  {
    name: 'add-invoice',
    method: 'POST',
    path: '/invoices',
    entry: 'functions/add-invoice/handler.ts',
    tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
    indexActions: [],
  },
  {
    name: 'add-payment',
    method: 'POST',
    path: '/payments',
    entry: 'functions/add-payment/handler.ts',
    tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    indexActions: [],
  },
  {
    name: 'payment-history',
    method: 'POST',
    path: '/payments/history',
    entry: 'functions/payment-history/handler.ts',
    tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'],
    indexActions: ['dynamodb:Query'],
  },
];

export type RouteName = RouteDefinition['name'];
