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
  | 'add-client'
  | 'list-clients'
  | 'get-client'
  | 'update-client'
  | 'delete-client'
  | 'add-payment'
  | 'get-payment'
  | 'reverse-payment'
  | 'payment-history'
  | 'invoice-history'
  | 'aging-report'
  | 'client-statement';

export type ApiFunctionName = 'invoices' | 'payments' | 'history';

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
  /** The route also answers `Accept: text/csv` with its rows as CSV (docs/api.md "CSV"). */
  csv?: boolean;
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
      { name: 'send-invoice', method: 'GET', path: '/invoices/send/{reference_code}', writes: false, takesBody: false },
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
    tableActions: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      // A payment that settles its invoice deletes its open-invoice item (docs/data-design.md "Receivables").
      'dynamodb:DeleteItem',
    ],
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
        csv: true,
      },
      {
        name: 'invoice-history',
        method: 'POST',
        path: '/invoices/history',
        extraMethods: ['GET'],
        writes: false,
        takesBody: true,
        csv: true,
      },
      { name: 'aging-report', method: 'POST', path: '/reports/aging', writes: false, takesBody: true, csv: true },
      {
        name: 'client-statement',
        method: 'POST',
        path: '/clients/{id}/statement',
        writes: false,
        takesBody: true,
        csv: true,
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

/** Whether a route path has path parameters (API Gateway prefers a literal segment to a parameter). */
export const hasPathParameters = (path: string): boolean => path.includes('{');

/**
 * Matches a concrete request path against a route path, API Gateway style: a parameter is one non-empty
 * segment, percent-decoded. Returns the parameters, or undefined when the path does not match.
 */
export function matchRoutePath(routePath: string, path: string): Record<string, string> | undefined {
  const want = routePath.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const parameters: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const pattern = want[i]!;
    const segment = got[i]!;
    const parameter = /^\{([^}+]+)\}$/.exec(pattern);
    if (!parameter) {
      if (pattern !== segment) return undefined;
      continue;
    }
    if (segment === '') return undefined;
    parameters[parameter[1]!] = safeDecode(segment);
  }
  return parameters;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
