/**
 * The OpenAPI 3.1 document of the service, built from the same zod schemas the handlers validate with
 * (`shared/schemas/`, through zod 4's JSON Schema output), the response shapes of `./responses.ts`, the
 * error table `ERROR_STATUS` and examples captured from real responses (`./examples.json`).
 *
 * `npm run openapi` writes it to `openapi.json`; the local runtime serves it at `GET /openapi.json`;
 * test/openapi/ checks the committed file is current, valid, and matches every response the tests produce.
 * Deterministic: same inputs, same bytes.
 */
import { z } from 'zod/mini';
import { MAX_BODY_BYTES } from '../http/body.ts';
import { ERROR_STATUS, type ErrorCode } from '../http/errors.ts';
import { ROUTES, type RouteName } from '../routes.ts';
import { addClientSchema, newClientSchema, updateClientSchema } from '../schemas/client.ts';
import { clientStatementSchema, invoiceHistorySchema, paymentHistorySchema } from '../schemas/history.ts';
import { addInvoiceSchema, FLAT_CLIENT_FIELDS, invoiceItemSchema } from '../schemas/invoice.ts';
import { addPaymentSchema, reversePaymentSchema } from '../schemas/payment.ts';
import { remindersSchema } from '../schemas/reminders.ts';
import { agingReportSchema } from '../schemas/reports.ts';
import { sendInvoiceSchema } from '../schemas/send.ts';
import { HEADERS, PARAMETERS, SECURITY_SCHEMES } from './components.ts';
import { csvContent } from './csv-content.ts';
import { rawRequestBody } from './online-payment-operations.ts';
import { OPERATIONS, type OperationSpec, type ParameterName, type SuccessSpec } from './operations.ts';
import { DESCRIPTION } from './overview.ts';
import { PAGE_ERRORS, pageAnswer, pdfAnswer, redirectAnswer } from './page-responses.ts';

export { ROUTING_ERRORS } from './operations.ts';

import capturedExamples from './examples.json' with { type: 'json' };
import { REPORT_RESPONSE_SCHEMAS } from './report-responses.ts';
import { RESPONSE_SCHEMAS } from './responses.ts';
import { WEBHOOK_SCHEMAS, WEBHOOKS } from './webhooks.ts';

export interface Example {
  summary: string;
  value: unknown;
}

/** What `scripts/openapi.ts --capture-examples` records from real requests (see that script). */
export interface CapturedExamples {
  requests: Partial<Record<RouteName, { json: Record<string, unknown>; form?: string }>>;
  /** route (or `any` for the local runtime's routing errors) → HTTP status → example name → example. */
  responses: Record<string, Record<string, Record<string, Example>>>;
}

export const EXAMPLES = capturedExamples as unknown as CapturedExamples;

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed or invalid request',
  401: 'Missing, malformed, unknown or revoked API key (one identical body whichever)',
  403: 'Not enabled for this account',
  404: 'Not found (absent or belonging to another account: indistinguishable)',
  405: 'Method not allowed',
  409: 'Conflicts with the current state',
  413: `Body over ${MAX_BODY_BYTES / 1024} KiB`,
  415: 'Content type other than JSON or form-encoded',
  422: 'Idempotency-Key reused with a different body',
  500: 'Internal error (no internals are leaked; it is logged)',
  503: 'Temporarily unavailable, and nothing was written; retry after `Retry-After` seconds',
  504: 'The write may have been recorded (its commit could not be confirmed in time): retry only with the same `Idempotency-Key`, or check first',
};

/** JSON Schema of a zod request schema, as accepted on input. */
function inputSchema(schema: z.ZodMiniType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return json;
}

function examplesFor(
  route: string,
  status: number,
  filter?: readonly ErrorCode[],
): Record<string, Example> | undefined {
  const all = EXAMPLES.responses[route]?.[String(status)] ?? {};
  const entries = Object.entries(all).filter(([, example]) => {
    if (!filter) return true;
    const code = (example.value as { code?: string }).code;
    return code !== undefined && filter.includes(code as ErrorCode);
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function errorResponse(route: string, status: number, codes: readonly ErrorCode[], headers: Record<string, unknown>) {
  const list = codes.map((code) => `\`${code}\``).join(', ');
  const examples = examplesFor(route, status, codes);
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}. \`code\`: ${list}.`,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { properties: { code: { enum: [...codes] } } }],
        },
        ...(examples ? { examples } : {}),
      },
    },
  };
}

function successResponse(route: RouteName, spec: OperationSpec, success: SuccessSpec) {
  if (success.media === 'application/pdf') return pdfAnswer(success.description);
  if (success.media === 'text/html') return pageAnswer(success.description);
  if (success.media === 'redirect') return redirectAnswer(success.description);
  const examples = examplesFor(route, success.status);
  const csv = csvContent(route);
  const headers = {
    ...(spec.idempotent ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } } : {}),
    ...csv?.headers,
  };
  return {
    description: success.description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${success.schema}` },
        ...(examples ? { examples } : {}),
      },
      ...csv?.content,
    },
  };
}

function errorResponses(route: RouteName, spec: OperationSpec): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of spec.errors) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const codes = byStatus.get(status)!;
    const headers: Record<string, unknown> = {};
    // Stored outcomes (docs/api.md "Idempotency") are replayed with the header too.
    if (spec.idempotent && [403, 404, 409, 422].includes(status))
      headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
    if (status === 401) headers['WWW-Authenticate'] = { $ref: '#/components/headers/WWW-Authenticate' };
    if (status === 503 || codes.includes('idempotency_request_in_progress'))
      headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    responses[String(status)] = errorResponse(route, status, codes, headers);
  }
  return responses;
}

function requestBody(route: RouteName, request: NonNullable<OperationSpec['request']>) {
  const ref = { $ref: `#/components/schemas/${request.name}` };
  const example = EXAMPLES.requests[route];
  return {
    required: true,
    description:
      'JSON (`application/json`; a body without content type or with `text/plain` is read as JSON too). ' +
      '`application/x-www-form-urlencoded` with PHP bracket notation (`items[0][item]=…`, `client[email]=…`) means the same object.',
    content: {
      'application/json': {
        schema: ref,
        ...(example ? { examples: { request: { summary: 'A valid request', value: example.json } } } : {}),
      },
      'application/x-www-form-urlencoded': { schema: ref, ...(example?.form ? { example: example.form } : {}) },
    },
  };
}

function operation(route: RouteName) {
  const spec = OPERATIONS[route];
  const parameters: { $ref: string }[] = [
    ...(spec.parameters ?? []).map((name: ParameterName) => ({ $ref: `#/components/parameters/${name}` })),
    ...(spec.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  const responses: Record<string, unknown> = {};
  for (const success of [spec.success, spec.alsoSuccess])
    if (success) responses[String(success.status)] = successResponse(route, spec, success);
  Object.assign(responses, spec.public ? PAGE_ERRORS : errorResponses(route, spec));
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    ...(spec.public || spec.provider ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.request ? { requestBody: requestBody(route, spec.request) } : {}),
    ...(spec.rawRequest ? { requestBody: rawRequestBody(spec.rawRequest) } : {}),
    responses,
  };
}

/** The same operation answered for another method (`GET /payments/history` with a JSON body): JSON only. */
function extraMethodOperation(route: RouteName, method: string) {
  const base = operation(route);
  if (!base.requestBody) throw new Error(`${route} has no body to send with ${method}`);
  const { 'application/json': json } = base.requestBody.content;
  return {
    ...base,
    operationId: `${base.operationId}With${method[0]}${method.slice(1).toLowerCase()}`,
    summary: `${base.summary} (${method} with a JSON body)`,
    description: `${base.description}\n\nThe same request as the POST, sent as ${method} with a JSON body, for SDKs that do so (pypayant). Prefer POST.`,
    requestBody: {
      ...base.requestBody,
      description: 'The same JSON body as the POST.',
      content: { 'application/json': json },
    },
  };
}

/** The add-invoice request schema, with the flat-client fields node-payant sends at the top level. */
function addInvoiceRequestSchema(): Record<string, unknown> {
  const schema = inputSchema(addInvoiceSchema) as { properties: Record<string, unknown> };
  const client = inputSchema(newClientSchema) as { properties: Record<string, Record<string, unknown>> };
  for (const field of FLAT_CLIENT_FIELDS) {
    const property = client.properties[field]!;
    schema.properties[field] = {
      ...property,
      description: `Flat client: \`client.${field}\` when neither \`client\` nor \`client_id\` is sent.${property.description ? ` ${String(property.description)}` : ''}`,
    };
  }
  return schema;
}

/** `components.schemas` for requests, from the zod schemas the handlers validate with. */
function requestSchemas(): Record<string, unknown> {
  return {
    AddInvoiceRequest: addInvoiceRequestSchema(),
    NewClient: inputSchema(newClientSchema),
    InvoiceItemInput: inputSchema(invoiceItemSchema),
    AddPaymentRequest: inputSchema(addPaymentSchema),
    ReversePaymentRequest: inputSchema(reversePaymentSchema),
    SendInvoiceRequest: inputSchema(sendInvoiceSchema),
    RemindersRequest: inputSchema(remindersSchema),
    PaymentHistoryRequest: inputSchema(paymentHistorySchema),
    InvoiceHistoryRequest: inputSchema(invoiceHistorySchema),
    AgingReportRequest: inputSchema(agingReportSchema),
    ClientStatementRequest: inputSchema(clientStatementSchema),
    AddClientRequest: inputSchema(addClientSchema),
    UpdateClientRequest: inputSchema(updateClientSchema),
  };
}

/** Every route of the route table under its path, one operation per method. */
function pathsOf(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const operations = (paths[route.path] ??= {});
    operations[route.method.toLowerCase()] = operation(route.name);
    for (const method of route.extraMethods ?? [])
      operations[method.toLowerCase()] = extraMethodOperation(route.name, method);
  }
  return paths;
}

/** Builds the whole document. */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Invoicing and Payments API',
      version: '1.0.0',
      description: DESCRIPTION,
    },
    servers: [
      { url: '/', description: 'This server' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
        description: 'A deployed stage (the ApiUrl output of the CDK stack)',
        variables: { apiId: { default: 'abc123defg' }, region: { default: 'eu-west-1' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Invoices', description: 'Create, read, list and delete invoices' },
      { name: 'Clients', description: "Keep the account's clients" },
      { name: 'Payments', description: 'Record payments and list payment history' },
      { name: 'Hosted pages', description: 'What the client opens: the invoice page and its PDF, without an API key' },
      { name: 'Reports', description: 'Aging (who owes what) and client statements' },
      { name: 'Paystack', description: "Paystack's calls: its webhook (docs/getting-paid-online.md)" },
      // Not "Webhooks": Swagger UI titles the webhooks section so already, and a tag of that name showed it twice.
      { name: 'Events', description: "Events POSTed to the account's webhook endpoint (docs/webhooks.md)" },
    ],
    paths: pathsOf(),
    webhooks: WEBHOOKS,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: {
        RouteNotFound: errorResponse('any', 404, ['route_not_found'], {}),
        MethodNotAllowed: errorResponse('any', 405, ['method_not_allowed'], {
          Allow: { description: 'The methods the path accepts', schema: { type: 'string' } },
        }),
      },
      schemas: { ...requestSchemas(), ...RESPONSE_SCHEMAS, ...REPORT_RESPONSE_SCHEMAS, ...WEBHOOK_SCHEMAS },
    },
  };
}

/** The document as `openapi.json` holds it. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
