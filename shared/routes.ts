/**
 * The route table, declared once (docs/api.md "Endpoints"): three API functions grouped by resource, each serving its
 * routes through one router. The CDK stack creates one Lambda function, one least-privilege IAM policy and one
 * integration per function and one HTTP API route per route key; the local runtime, the OpenAPI document, the docs and
 * the tests read the same entries.
 */
import { pathParameterNames } from './path-parameters.ts';

import type {
  ApiFunctionDefinition,
  ApiFunctionName,
  HttpMethod,
  RouteDefinition,
  RouteName,
} from './route-definitions.ts';

export type {
  Answers,
  ApiFunctionDefinition,
  ApiFunctionName,
  HttpMethod,
  ProviderRouteName,
  PublicRouteName,
  RouteDefinition,
  RouteName,
  TableAction,
} from './route-definitions.ts';

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
        name: 'invoice-pdf',
        method: 'GET',
        path: '/invoices/{reference_code}/pdf',
        parameters: { reference_code: 'referenceCode' },
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
      {
        name: 'forget-client-card',
        method: 'DELETE',
        path: '/clients/{id}/cards/{card_token}',
        parameters: { id: 'clientId', card_token: 'cardToken' },
        writes: true,
        takesBody: false,
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
      { name: 'aging-report', method: 'POST', path: '/reports/aging', writes: false, takesBody: true, csv: true },
      {
        name: 'client-statement',
        method: 'POST',
        path: '/clients/{id}/statement',
        parameters: { id: 'clientId' },
        writes: false,
        takesBody: true,
        csv: true,
      },
    ],
  },
];

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

/** The methods a route answers: its method and its extra methods. */
export const methodsOf = (route: Pick<RouteDefinition, 'method' | 'extraMethods'>): HttpMethod[] => [
  route.method,
  ...(route.extraMethods ?? []),
];
