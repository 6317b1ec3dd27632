/**
 * The route table, declared once (SPEC §13): three API functions grouped by resource, each serving its routes
 * through one router. The CDK stack creates one Lambda function, one least-privilege IAM policy and one
 * integration per function and one HTTP API route per route key; the local runtime, the OpenAPI document,
 * the docs and the tests read the same entries.
 */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:Query';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type RouteName =
  | 'add-invoice'
  | 'get-invoice'
  | 'delete-invoice'
  | 'send-invoice'
  | 'email-invoice'
  | 'invoice-pdf'
  | 'hosted-invoice-page'
  | 'hosted-invoice-pdf'
  | 'add-client'
  | 'list-clients'
  | 'get-client'
  | 'update-client'
  | 'delete-client'
  | 'add-payment'
  | 'get-payment'
  | 'reverse-payment'
  | 'payment-history'
  | 'invoice-history';

export type ApiFunctionName = 'invoices' | 'payments' | 'history';

/** The routes people open without an API key (the hosted invoice page and its PDF): the token in the path is the key. */
export type PublicRouteName = 'hosted-invoice-page' | 'hosted-invoice-pdf';

/** What a route answers on success: the JSON envelope (the default), an HTML page or a PDF. */
export type Answers = 'json' | 'html' | 'pdf';

export interface RouteDefinition {
  /** Stable name: idempotency scope, logs, metrics and the OpenAPI operation id. */
  name: RouteName;
  method: HttpMethod;
  /** API Gateway route path; `{name}` is a path parameter. */
  path: string;
  /** Methods answered besides `method`, with the same handler (pypayant lists history with a GET and a JSON body). */
  extraMethods?: readonly 'GET'[];
  /** The route commits writes: a timeout may leave one in flight (504 `outcome_unknown`, never a plain 503). */
  writes: boolean;
  /** The route reads a request body; one sent to a route without (a GET or DELETE) is ignored, whatever its type. */
  takesBody: boolean;
  /** Every field of the body is optional: an empty body means `{}` (else it is 400 `invalid_json`). */
  optionalBody?: true;
  /**
   * `public`: no API key is asked (docs/sending-invoices.md: the hosted page and its PDF, for people); its answers,
   * errors included, are HTML pages — the one exception to the JSON error envelope. Default: `key`.
   */
  access?: 'key' | 'public';
  /** What a success is (default `json`). */
  answers?: Answers;
  /** The function that serves it and the module that function runs (filled in from API_FUNCTIONS). */
  function: ApiFunctionName;
  entry: string;
}

export interface ApiFunctionDefinition {
  /** Function id (PascalCase in CDK) and folder under functions/. */
  name: ApiFunctionName;
  /** Handler module relative to the repository root; it exports `handler`. */
  entry: string;
  /**
   * DynamoDB actions the function performs on the table itself (TransactWriteItems is authorised per action).
   * test/infra/iam-actions.test.ts checks that each list equals what the function really calls.
   */
  tableActions: readonly TableAction[];
  /** DynamoDB actions the function performs on the table's index (GSI1). */
  indexActions: readonly TableAction[];
  routes: readonly Omit<RouteDefinition, 'function' | 'entry'>[];
}

export const API_FUNCTIONS: readonly ApiFunctionDefinition[] = [
  {
    name: 'invoices',
    entry: 'functions/invoices/handler.ts',
    tableActions: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
    ],
    indexActions: ['dynamodb:Query'],
    routes: [
      { name: 'add-invoice', method: 'POST', path: '/invoices', writes: true, takesBody: true },
      { name: 'get-invoice', method: 'GET', path: '/invoices/{reference_code}', writes: false, takesBody: false },
      { name: 'delete-invoice', method: 'DELETE', path: '/invoices/{reference_code}', writes: true, takesBody: false },
      // The SDKs' send (a GET that writes: it queues an e-mail) and the POST with recipients and a note.
      { name: 'send-invoice', method: 'GET', path: '/invoices/send/{reference_code}', writes: true, takesBody: false },
      {
        name: 'email-invoice',
        method: 'POST',
        path: '/invoices/{reference_code}/send',
        writes: true,
        takesBody: true,
        optionalBody: true,
      },
      {
        name: 'invoice-pdf',
        method: 'GET',
        path: '/invoices/{reference_code}/pdf',
        writes: false,
        takesBody: false,
        answers: 'pdf',
      },
      {
        name: 'hosted-invoice-page',
        method: 'GET',
        path: '/i/{token}',
        writes: false,
        takesBody: false,
        access: 'public',
        answers: 'html',
      },
      {
        name: 'hosted-invoice-pdf',
        method: 'GET',
        path: '/i/{token}/pdf',
        writes: false,
        takesBody: false,
        access: 'public',
        answers: 'pdf',
      },
      { name: 'add-client', method: 'POST', path: '/clients', writes: true, takesBody: true },
      { name: 'list-clients', method: 'GET', path: '/clients', writes: false, takesBody: false },
      { name: 'get-client', method: 'GET', path: '/clients/{id}', writes: false, takesBody: false },
      { name: 'update-client', method: 'PUT', path: '/clients/{id}', writes: true, takesBody: true },
      { name: 'delete-client', method: 'DELETE', path: '/clients/{id}', writes: true, takesBody: false },
    ],
  },
  {
    name: 'payments',
    entry: 'functions/payments/handler.ts',
    tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    indexActions: [],
    routes: [
      { name: 'add-payment', method: 'POST', path: '/payments', writes: true, takesBody: true },
      { name: 'get-payment', method: 'GET', path: '/payments/{reference_code}', writes: false, takesBody: false },
      { name: 'reverse-payment', method: 'POST', path: '/payments/{id}/reversal', writes: true, takesBody: true },
    ],
  },
  {
    name: 'history',
    entry: 'functions/history/handler.ts',
    tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
    indexActions: ['dynamodb:Query'],
    routes: [
      {
        name: 'payment-history',
        method: 'POST',
        path: '/payments/history',
        extraMethods: ['GET'],
        writes: false,
        takesBody: true,
      },
      {
        name: 'invoice-history',
        method: 'POST',
        path: '/invoices/history',
        extraMethods: ['GET'],
        writes: false,
        takesBody: true,
      },
    ],
  },
];

/** Every route, each with the function that serves it. */
export const ROUTES: readonly RouteDefinition[] = API_FUNCTIONS.flatMap((fn) =>
  fn.routes.map((route) => ({ ...route, function: fn.name, entry: fn.entry })),
);

export function routeNamed(name: RouteName): RouteDefinition {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`No route named ${name}`);
  return route;
}

/** Whether a route is opened without an API key (and answers its errors as HTML pages). */
export const isPublicRoute = (route: Pick<RouteDefinition, 'access'>): boolean => route.access === 'public';

export function apiFunctionNamed(name: ApiFunctionName): ApiFunctionDefinition {
  const fn = API_FUNCTIONS.find((f) => f.name === name);
  if (!fn) throw new Error(`No API function named ${name}`);
  return fn;
}

/** One method + path pair a route answers (API Gateway route key `"<method> <path>"`). */
export interface RouteKey {
  method: HttpMethod;
  path: string;
}

/** The methods a route answers: its method and its extra methods. */
export const methodsOf = (route: Pick<RouteDefinition, 'method' | 'extraMethods'>): HttpMethod[] => [
  route.method,
  ...(route.extraMethods ?? []),
];

/**
 * Every method + path a route answers: its method and extra methods, each on its path with and without a
 * trailing slash (docs/api.md: `/payments/history/` is `/payments/history`). API Gateway HTTP APIs match route
 * paths exactly, so the stack declares each of these as its own route (see `apiGatewayRoutePath`); the
 * local runtime serves the same list.
 */
export function routeKeys(route: Pick<RouteDefinition, 'method' | 'extraMethods' | 'path'>): RouteKey[] {
  return methodsOf(route).flatMap((method) => [
    { method, path: route.path },
    { method, path: `${route.path}/` },
  ]);
}

/** Name of the greedy path variable that carries the trailing-slash twin of a route on API Gateway. */
export const TRAILING_SLASH_VARIABLE = 'proxy';

/**
 * The API Gateway route path for a route key. API Gateway refuses route paths that end in "/", so the
 * trailing-slash twin is declared as a greedy child route (`/payments/history/{proxy+}`); the function's router
 * answers 404 for a real child path such as `/payments/history/x`.
 */
export function apiGatewayRoutePath(path: string): string {
  const named = withGatewayVariableNames(path);
  return named.endsWith('/') ? `${named}{${TRAILING_SLASH_VARIABLE}+}` : named;
}

const PATH_VARIABLE = /^\{([^}+]+)\}$/;

/**
 * API Gateway refuses two variables with different names under one parent (`/payments/{reference_code}` and
 * `/payments/{id}/reversal`: 409 "conflicting variable on the same hierarchical level"). The gateway's path therefore
 * names each variable as the first route declaring a variable under that parent does; the function's router still
 * matches the route's own path and gives the handler the route's own name (shared/http/api-function.ts).
 */
function withGatewayVariableNames(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      if (!PATH_VARIABLE.test(segment)) return segment;
      const parent = segments.slice(0, index).join('/');
      return `{${firstVariableUnder(parent) ?? segment.slice(1, -1)}}`;
    })
    .join('/');
}

function firstVariableUnder(parent: string): string | undefined {
  for (const route of ROUTES) {
    const segments = route.path.split('/');
    const depth = parent.split('/').length;
    if (segments.length > depth && segments.slice(0, depth).join('/') === parent) {
      const variable = PATH_VARIABLE.exec(segments[depth] ?? '');
      if (variable) return variable[1];
    }
  }
  return undefined;
}
