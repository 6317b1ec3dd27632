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
import { ROUTES, type RouteName, routeNamed } from '../routes.ts';
import { addClientSchema, newClientSchema, updateClientSchema } from '../schemas/client.ts';
import { refundCreditSchema } from '../schemas/client-credit.ts';
import { creditNoteSchema } from '../schemas/credit-note.ts';
import {
  clientStatementSchema,
  invoiceHistorySchema,
  paymentHistorySchema,
  sendStatementSchema,
  taxReportSchema,
} from '../schemas/history.ts';
import { addInvoiceSchema, FLAT_CLIENT_FIELDS, invoiceItemSchema } from '../schemas/invoice.ts';
import { addPaymentSchema, reversePaymentSchema } from '../schemas/payment.ts';
import { recurringInvoiceSchema, scheduleSchema } from '../schemas/recurring.ts';
import { remindersSchema } from '../schemas/reminders.ts';
import { agingReportSchema } from '../schemas/reports.ts';
import { sendInvoiceSchema } from '../schemas/send.ts';
import { csvContent, pdfContent } from './csv-content.ts';
import { OPERATIONS, type OperationSpec, type ParameterName, type SuccessSpec } from './operations.ts';
import { PAGE_ERRORS, pageAnswer, pdfAnswer, redirectAnswer, xmlAnswer } from './page-responses.ts';
import { PARAMETERS } from './parameters.ts';
import { RECURRING_OPERATIONS } from './recurring-operations.ts';
import { RECURRING_SCHEMAS } from './recurring-responses.ts';

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

/** The error codes by HTTP status, from ERROR_STATUS. */
function errorTable(): string {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS))
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\``]);
  const rows = [...byStatus].map(([status, codes]) => `| ${status} | ${codes.join(', ')} |`);
  return ['| HTTP | codes |', '|---|---|', ...rows].join('\n');
}

/** The overview (`info.description`): the rules every operation shares, and the table of error codes. */
const DESCRIPTION = `Invoice clients, record payments against invoices, list invoices and payment history, and keep a client list.

**Authentication**: every request carries an account's secret key as \`Authorization: Bearer sk_…\`.

**Envelope**: every body has a top-level \`status\`: \`success\` (with \`data\`, and \`message\` on writes) or \`error\`
(with \`code\`, \`message\`, \`errors[]\` and \`request_id\`).

**Idempotency**: send \`Idempotency-Key\` on \`POST /invoices\`, \`POST /payments\`, \`POST /clients\`, reversals and the two send routes to make retries safe (kept 24 h):
the same key and body replays the first response with \`Idempotent-Replayed: true\`; the same key with another body is 422.

**5xx**: \`503 service_unavailable\` and \`500 internal_error\` are only sent when nothing was written: retry (503 after
\`Retry-After\`). \`504 outcome_unknown\` means the write **may** have been recorded: retry only with the same
\`Idempotency-Key\` (it replays the recorded response or writes once), or check the payment history first.

**Money** is sent as a string or number (\`"1,500.50"\`, \`1500\`) and returned as a string with two decimals.
**Dates**: \`MM/DD/YYYY\` for \`due_date\` and payment \`date\`, \`DD/MM/YYYY\` for history \`start\`/\`end\`;
returned as Unix timestamps (seconds, string) of 00:00 UTC of the date.

Error codes (stable API; messages are for humans):

${errorTable()}

\`route_not_found\` and \`method_not_allowed\` come from the local runtime (\`npm start\`); deployed, API Gateway answers unknown routes itself.
A trailing slash on any path is ignored (\`/payments/history/\`).
The guide: docs/api.md.`;

// The reusable parameters (path, query, Idempotency-Key), response headers and security scheme (`components`).

const header = (description: string, schema: Record<string, unknown>) => ({ description, schema });
const HEADERS = {
  'Idempotent-Replayed': header(
    '`true` when this is the stored response of an earlier request with the same Idempotency-Key and body.',
    {
      type: 'string',
      enum: ['true'],
    },
  ),
  'WWW-Authenticate': header('Always `Bearer`.', { type: 'string', enum: ['Bearer'] }),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'string', pattern: '^\\d+$' }),
  Link: header(
    'CSV pages only: `<path?cursor=…>; rel="next"` while another page follows (the same request, with that cursor).',
    {
      type: 'string',
    },
  ),
  'X-Next-Cursor': header(
    "CSV pages only: the cursor of the next page (the JSON's `next_cursor`); absent on the last page.",
    {
      type: 'string',
    },
  ),
};

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_ + 40 base62 characters',
    description:
      'The account secret key. Missing, malformed, unknown or revoked keys all get the same 401 `invalid_api_key`.',
  },
};

const ALL_OPERATIONS: Record<RouteName, OperationSpec> = { ...OPERATIONS, ...RECURRING_OPERATIONS };

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
  if (success.media === 'application/xml') return xmlAnswer(success.description);
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
      ...pdfContent(route),
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
    // A route whose fields are all optional takes no body as `{}` (shared/routes.ts `optionalBody`).
    required: routeNamed(route).optionalBody !== true,
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

/** The request body of a route that reads the exact bytes sent (Paystack's webhook): JSON only. */
const rawRequestBody = (request: NonNullable<OperationSpec['rawRequest']>) => ({
  required: true,
  description: request.description,
  content: { 'application/json': { schema: request.schema } },
});
function operation(route: RouteName) {
  const spec = ALL_OPERATIONS[route];
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
    RefundCreditRequest: inputSchema(refundCreditSchema),
    SendInvoiceRequest: inputSchema(sendInvoiceSchema),
    RemindersRequest: inputSchema(remindersSchema),
    CreditNoteRequest: inputSchema(creditNoteSchema),
    PaymentHistoryRequest: inputSchema(paymentHistorySchema),
    InvoiceHistoryRequest: inputSchema(invoiceHistorySchema),
    AgingReportRequest: inputSchema(agingReportSchema),
    ClientStatementRequest: inputSchema(clientStatementSchema),
    SendStatementRequest: inputSchema(sendStatementSchema),
    TaxReportRequest: inputSchema(taxReportSchema),
    AddClientRequest: inputSchema(addClientSchema),
    UpdateClientRequest: inputSchema(updateClientSchema),
    CreateRecurringInvoiceRequest: inputSchema(recurringInvoiceSchema),
    RecurringScheduleInput: inputSchema(scheduleSchema),
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
      schemas: {
        ...requestSchemas(),
        ...RESPONSE_SCHEMAS,
        ...REPORT_RESPONSE_SCHEMAS,
        ...RECURRING_SCHEMAS,
        ...WEBHOOK_SCHEMAS,
      },
    },
  };
}

/** The document as `openapi.json` holds it. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
