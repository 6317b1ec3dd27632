/**
 * The route table, declared once (docs/api.md "Endpoints"): three API functions grouped by resource, each serving its
 * routes through one router. The CDK stack creates one Lambda function, one least-privilege IAM policy and one
 * integration per function and one HTTP API route per route key; the local runtime, the OpenAPI document, the docs and
 * the tests read the same entries. The names of the functions and of the routes are read off the table itself.
 */
import { type PathParameterKind, pathParameterNames } from './path-parameters.ts';

export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:Query';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route answers on success: the JSON envelope (the default), an HTML page, a PDF or XML (the e-invoice). */
export type Answers = 'json' | 'html' | 'pdf' | 'xml';

/** A route as the table declares it, its name aside. */
interface RouteShape {
  method: HttpMethod;
  /** API Gateway route path; `{name}` is a path parameter. */
  path: string;
  /** The kind of each `{name}` of the path, and only those (checked when this module loads). */
  parameters?: Readonly<Record<string, PathParameterKind>>;
  /** Methods answered besides `method`, with the same handler (pypayant lists history with a GET and a JSON body). */
  extraMethods?: readonly 'GET'[];
  /** Commits writes (a send too: it queues an e-mail): a timeout may leave one in flight (504, never a plain 503). */
  writes: boolean;
  /** The route reads a request body; one sent to a route without (a GET or DELETE) is ignored, whatever its type. */
  takesBody: boolean;
  /** Every field of the body is optional: an empty body means `{}` (else it is 400 `invalid_json`). */
  optionalBody?: true;
  /**
   * `public`: no API key is asked (docs/sending-invoices.md: the hosted page and its PDF, for people); its answers,
   * errors included, are HTML pages — the one exception to the JSON error envelope. `provider`: no API key either
   * (docs/getting-paid-online.md "Webhooks": the body's signature is checked by the route), the body handed over as
   * the exact bytes received, errors as the JSON envelope. Default: `key`.
   */
  access?: 'key' | 'public' | 'provider';
  /** What a success is (default `json`). */
  answers?: Answers;
  /** The route also answers `Accept: text/csv` with its rows as CSV (docs/api.md "CSV"). */
  csv?: boolean;
  /** The route also answers `Accept: application/pdf` with a PDF of its answer (docs/receivables.md "One client: the statement"). */
  pdf?: boolean;
}

/** A function as the table declares it, its name aside. */
interface FunctionShape {
  /** Handler module relative to the repository root; it exports `handler`. */
  entry: string;
  /**
   * DynamoDB actions the function performs on the table itself (TransactWriteItems is authorised per action).
   * test/infra/iam-actions.test.ts checks that each list equals what the function really calls.
   */
  tableActions: readonly TableAction[];
  /** DynamoDB actions the function performs on the table's index (GSI1). */
  indexActions: readonly TableAction[];
  /** Paystack secrets it opens and seals (infra/paystack.ts grants its KMS key for these purposes only). */
  paystackSecrets?: {
    unseals?: readonly ('paystack-secret-key' | 'paystack-authorization')[];
    seals?: readonly 'paystack-authorization'[];
  };
}

/** What the table is checked against; its own literal type gives the names below. */
type FunctionEntry = FunctionShape & { name: string; routes: readonly (RouteShape & { name: string })[] };

const TABLE = [
  {
    name: 'invoices',
    entry: 'functions/invoices/handler.ts',
    // The pay button and the return (verify; a tokenized card's authorization sealed), Paystack's webhook signature.
    paystackSecrets: { unseals: ['paystack-secret-key'], seals: ['paystack-authorization'] },
    tableActions: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
      // The hosted page's first read: its link and receipts, one partition (docs/data-design.md "Getting paid online").
      'dynamodb:Query',
    ],
    indexActions: ['dynamodb:Query'],
    routes: [
      { name: 'add-invoice', method: 'POST', path: '/invoices', writes: true, takesBody: true },
      {
        name: 'get-invoice',
        method: 'GET',
        path: '/invoices/{reference_code}',
        parameters: { reference_code: 'referenceCode' },
        writes: false,
        takesBody: false,
      },
      {
        name: 'delete-invoice',
        method: 'DELETE',
        path: '/invoices/{reference_code}',
        parameters: { reference_code: 'referenceCode' },
        writes: true,
        takesBody: false,
      },
      {
        name: 'send-invoice',
        method: 'GET',
        path: '/invoices/send/{reference_code}',
        parameters: { reference_code: 'referenceCode' },
        writes: true,
        takesBody: false,
      },
      {
        name: 'email-invoice',
        method: 'POST',
        path: '/invoices/{reference_code}/send',
        parameters: { reference_code: 'referenceCode' },
        writes: true,
        takesBody: true,
        optionalBody: true,
      },
      {
        name: 'invoice-reminders',
        method: 'POST',
        path: '/invoices/{reference_code}/reminders',
        parameters: { reference_code: 'referenceCode' },
        writes: true,
        takesBody: true,
      },
      {
        name: 'create-credit-note',
        method: 'POST',
        path: '/invoices/{reference_code}/credit-notes',
        parameters: { reference_code: 'referenceCode' },
        writes: true,
        takesBody: true,
      },
      {
        name: 'invoice-pdf',
        method: 'GET',
        path: '/invoices/{reference_code}/pdf',
        parameters: { reference_code: 'referenceCode' },
        writes: false,
        takesBody: false,
        answers: 'pdf',
      },
      {
        name: 'invoice-ubl',
        method: 'GET',
        path: '/invoices/{reference_code}/ubl',
        parameters: { reference_code: 'referenceCode' },
        writes: false,
        takesBody: false,
        answers: 'xml',
      },
      // A credit note's own documents (docs/tax.md "Credit notes"): its e-invoice and its PDF.
      {
        name: 'credit-note-ubl',
        method: 'GET',
        path: '/invoices/{reference_code}/credit-notes/{number}/ubl',
        parameters: { reference_code: 'referenceCode', number: 'creditNoteNumber' },
        writes: false,
        takesBody: false,
        answers: 'xml',
      },
      {
        name: 'credit-note-pdf',
        method: 'GET',
        path: '/invoices/{reference_code}/credit-notes/{number}/pdf',
        parameters: { reference_code: 'referenceCode', number: 'creditNoteNumber' },
        writes: false,
        takesBody: false,
        answers: 'pdf',
      },
      {
        name: 'hosted-invoice-page',
        method: 'GET',
        path: '/i/{token}',
        parameters: { token: 'hostedToken' },
        writes: false,
        takesBody: false,
        access: 'public',
        answers: 'html',
      },
      {
        name: 'hosted-invoice-pdf',
        method: 'GET',
        path: '/i/{token}/pdf',
        parameters: { token: 'hostedToken' },
        writes: false,
        takesBody: false,
        access: 'public',
        answers: 'pdf',
      },
      // Getting paid online (docs/getting-paid-online.md): the pay button's form, the return from Paystack's checkout,
      // Paystack's webhook. The form's body (form-encoded, empty) says nothing: the token is the invoice.
      {
        name: 'hosted-invoice-pay',
        method: 'POST',
        path: '/i/{token}/pay',
        parameters: { token: 'hostedToken' },
        writes: true,
        takesBody: false,
        access: 'public',
        answers: 'html',
      },
      {
        name: 'hosted-invoice-paid',
        method: 'GET',
        path: '/i/{token}/paid',
        parameters: { token: 'hostedToken' },
        writes: true,
        takesBody: false,
        access: 'public',
        answers: 'html',
      },
      {
        name: 'paystack-event',
        method: 'POST',
        path: '/paystack/events/{hook_id}',
        parameters: { hook_id: 'paystackHookId' },
        writes: true,
        takesBody: true,
        access: 'provider',
      },
      { name: 'add-client', method: 'POST', path: '/clients', writes: true, takesBody: true },
      { name: 'list-clients', method: 'GET', path: '/clients', writes: false, takesBody: false },
      {
        name: 'get-client',
        method: 'GET',
        path: '/clients/{id}',
        parameters: { id: 'clientId' },
        writes: false,
        takesBody: false,
      },
      {
        name: 'update-client',
        method: 'PUT',
        path: '/clients/{id}',
        parameters: { id: 'clientId' },
        writes: true,
        takesBody: true,
      },
      {
        name: 'delete-client',
        method: 'DELETE',
        path: '/clients/{id}',
        parameters: { id: 'clientId' },
        writes: true,
        takesBody: false,
      },
      // Recurring invoices (docs/recurring-invoices.md): the series; their invoices are the wake sweep's.
      { name: 'create-recurring-invoice', method: 'POST', path: '/recurring-invoices', writes: true, takesBody: true },
      { name: 'list-recurring-invoices', method: 'GET', path: '/recurring-invoices', writes: false, takesBody: false },
      {
        name: 'get-recurring-invoice',
        method: 'GET',
        path: '/recurring-invoices/{id}',
        parameters: { id: 'recurringId' },
        writes: false,
        takesBody: false,
      },
      ...(['pause', 'resume', 'cancel'] as const).map((action) => ({
        name: `${action}-recurring-invoice` as const,
        method: 'POST' as const,
        path: `/recurring-invoices/{id}/${action}` as const,
        parameters: { id: 'recurringId' as const },
        writes: true,
        takesBody: false,
      })),
      {
        name: 'send-client-statement',
        method: 'POST',
        path: '/clients/{id}/statement/send',
        parameters: { id: 'clientId' },
        writes: true,
        takesBody: true,
      },
      {
        name: 'forget-client-card',
        method: 'DELETE',
        path: '/clients/{id}/cards/{card_token}',
        parameters: { id: 'clientId', card_token: 'cardToken' },
        writes: true,
        takesBody: false,
      },
      {
        name: 'create-virtual-account',
        method: 'POST',
        path: '/clients/{id}/virtual-account',
        parameters: { id: 'clientId' },
        writes: true,
        takesBody: false,
      },
      {
        name: 'refund-client-credit',
        method: 'POST',
        path: '/clients/{id}/credit/refund',
        parameters: { id: 'clientId' },
        writes: true,
        takesBody: true,
      },
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
      {
        name: 'get-payment',
        method: 'GET',
        path: '/payments/{reference_code}',
        parameters: { reference_code: 'referenceCode' },
        writes: false,
        takesBody: false,
      },
      {
        name: 'reverse-payment',
        method: 'POST',
        path: '/payments/{id}/reversal',
        parameters: { id: 'paymentId' },
        writes: true,
        takesBody: true,
      },
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
      {
        name: 'aging-report',
        method: 'POST',
        path: '/reports/aging',
        writes: false,
        takesBody: true,
        optionalBody: true,
        csv: true,
      },
      { name: 'tax-report', method: 'POST', path: '/reports/tax', writes: false, takesBody: true, csv: true },
      {
        name: 'client-statement',
        method: 'POST',
        path: '/clients/{id}/statement',
        parameters: { id: 'clientId' },
        writes: false,
        takesBody: true,
        csv: true,
        pdf: true,
      },
    ],
  },
] as const satisfies readonly FunctionEntry[];

type TableRoute = (typeof TABLE)[number]['routes'][number];

/** Function id (PascalCase in CDK) and folder under functions/. */
export type ApiFunctionName = (typeof TABLE)[number]['name'];

/** Stable name of a route: idempotency scope, logs, metrics and the OpenAPI operation id. */
export type RouteName = TableRoute['name'];

/** The recurring-invoice routes (docs/recurring-invoices.md). */
export type RecurringRouteName = Extract<RouteName, `${string}recurring-invoice${string}`>;

/** The routes people open without an API key (the hosted page, its PDF, the pay button, the return): the token is the key. */
export type PublicRouteName = Extract<TableRoute, { access: 'public' }>['name'];

/** The routes a payment provider calls (Paystack's webhook): no API key, the body's signature is the key. */
export type ProviderRouteName = Extract<TableRoute, { access: 'provider' }>['name'];

export interface RouteDefinition extends RouteShape {
  name: RouteName;
  /** The function that serves it and the module that function runs (filled in from API_FUNCTIONS). */
  function: ApiFunctionName;
  entry: string;
}

export interface ApiFunctionDefinition extends FunctionShape {
  name: ApiFunctionName;
  routes: readonly Omit<RouteDefinition, 'function' | 'entry'>[];
}

export const API_FUNCTIONS: readonly ApiFunctionDefinition[] = TABLE;

/** A `{name}` without a kind, or a kind for a name the path lacks: refused when this module loads (never served). */
export function withDeclaredParameters<T extends Pick<RouteDefinition, 'name' | 'path' | 'parameters'>>(route: T): T {
  const named = pathParameterNames(route.path).sort();
  const declared = Object.keys(route.parameters ?? {}).sort();
  if (named.join() !== declared.join())
    throw new Error(`Route ${route.name}: path parameters [${named}] but kinds declared for [${declared}]`);
  return route;
}

/** Every route, each with the function that serves it. */
export const ROUTES: readonly RouteDefinition[] = API_FUNCTIONS.flatMap((fn) =>
  fn.routes.map((route) => withDeclaredParameters({ ...route, function: fn.name, entry: fn.entry })),
);

export function routeNamed(name: RouteName): RouteDefinition {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`No route named ${name}`);
  return route;
}

/** Whether a route is opened without an API key (and answers its errors as HTML pages). */
export const isPublicRoute = (route: Pick<RouteDefinition, 'access'>): boolean => route.access === 'public';

/** Whether a route is called by a payment provider: no API key, the raw body, JSON errors. */
export const isProviderRoute = (route: Pick<RouteDefinition, 'access'>): boolean => route.access === 'provider';

export function apiFunctionNamed(name: ApiFunctionName): ApiFunctionDefinition {
  const fn = API_FUNCTIONS.find((f) => f.name === name);
  if (!fn) throw new Error(`No API function named ${name}`);
  return fn;
}

/** Whether a route can answer a PDF: its function ships the PDF engine (infra/function-settings.ts `PDF_BUNDLING`). */
export const mayAnswerPdf = (route: Pick<RouteDefinition, 'answers' | 'pdf'>): boolean =>
  route.answers === 'pdf' || route.pdf === true;

/** Whether a route answers XML (the e-invoice: docs/e-invoice.md): its function ships the UBL engine. */
export const answersXml = (route: Pick<RouteDefinition, 'answers'>): boolean => route.answers === 'xml';

/** The methods a route answers: its method and its extra methods. */
export const methodsOf = (route: Pick<RouteDefinition, 'method' | 'extraMethods'>): HttpMethod[] => [
  route.method,
  ...(route.extraMethods ?? []),
];
