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
  /** Methods answered besides `method`, with the same handler (pypayant lists history with a GET and a JSON body). */
  extraMethods?: readonly 'GET'[];
}

/** One method + path pair a route answers (API Gateway route key `"<method> <path>"`). */
export interface RouteKey {
  method: RouteDefinition['method'] | 'GET';
  path: string;
}

/**
 * Every method + path a route answers: its method and extra methods, each on its path with and without a
 * trailing slash (docs/api.md: `/payments/history/` is `/payments/history`). API Gateway HTTP APIs match route
 * paths exactly, so the stack declares each of these as its own route (see `apiGatewayRoutePath`); the
 * local runtime serves the same list.
 */
export function routeKeys(route: RouteDefinition): RouteKey[] {
  const methods = [route.method, ...(route.extraMethods ?? [])];
  return methods.flatMap((method) => [
    { method, path: route.path },
    { method, path: `${route.path}/` },
  ]);
}

export const ROUTES: readonly RouteDefinition[] = [
  {
    name: 'add-invoice',
    method: 'POST',
    path: '/invoices',
    entry: 'functions/add-invoice/handler.ts',
    tableActions: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:ConditionCheckItem',
    ],
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
    extraMethods: ['GET'],
  },
];

export type RouteName = RouteDefinition['name'];

/** Name of the greedy path variable that carries the trailing-slash twin of a route on API Gateway. */
export const TRAILING_SLASH_VARIABLE = 'proxy';

/**
 * The API Gateway route path for a route key. API Gateway refuses route paths that end in "/", so the
 * trailing-slash twin is declared as a greedy child route (`/payments/history/{proxy+}`); the handlers
 * answer 404 when that variable is not empty (a real child path such as `/payments/history/x`).
 */
export function apiGatewayRoutePath(path: string): string {
  return path.endsWith('/') ? `${path}{${TRAILING_SLASH_VARIABLE}+}` : path;
}
