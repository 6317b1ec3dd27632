/**
 * The shapes of the route table (shared/routes.ts declares the table itself): routes, their functions and what each
 * route answers.
 */
import type { PathParameterKind } from './path-parameters.ts';

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
  | 'invoice-reminders'
  | 'invoice-pdf'
  | 'hosted-invoice-page'
  | 'hosted-invoice-pdf'
  | 'hosted-invoice-pay'
  | 'hosted-invoice-paid'
  | 'paystack-event'
  | 'add-client'
  | 'list-clients'
  | 'get-client'
  | 'update-client'
  | 'delete-client'
  | 'forget-client-card'
  | 'add-payment'
  | 'get-payment'
  | 'reverse-payment'
  | 'payment-history'
  | 'invoice-history'
  | 'aging-report'
  | 'client-statement';

export type ApiFunctionName = 'invoices' | 'payments' | 'history';

/** The routes people open without an API key (the hosted invoice page, its PDF, the pay button and the return): the token in the path is the key. */
export type PublicRouteName =
  | 'hosted-invoice-page'
  | 'hosted-invoice-pdf'
  | 'hosted-invoice-pay'
  | 'hosted-invoice-paid';

/** The routes a payment provider calls (Paystack's webhook): no API key, the body's signature is the key. */
export type ProviderRouteName = 'paystack-event';

/** What a route answers on success: the JSON envelope (the default), an HTML page or a PDF. */
export type Answers = 'json' | 'html' | 'pdf';

export interface RouteDefinition {
  /** Stable name: idempotency scope, logs, metrics and the OpenAPI operation id. */
  name: RouteName;
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
