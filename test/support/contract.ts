/**
 * The OpenAPI contract, checked on every response the tests produce: `call()` in ./api.ts passes each
 * response here, and a response whose status is not documented for its operation, or whose body does
 * not validate against the documented schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses), or that
 * carries an undocumented header, makes that `call()` throw. So every integration test is also a
 * contract test. The document is built in memory (test/openapi/document.test.ts keeps the committed
 * `openapi.json` equal to it).
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../shared/openapi/document.ts';
import { ROUTES, type RouteName } from '../../shared/routes.ts';

const DOCUMENT_ID = 'https://invoicing.local/openapi.json';

interface ResponseSpec {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown }>;
}

let state: { document: Record<string, any>; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

function load() {
  if (!state) {
    const document = { ...buildOpenApiDocument(), $id: DOCUMENT_ID };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document);
    state = { document, ajv, validators: new Map() };
  }
  return state;
}

/** The OpenAPI document the checks use. */
export function contractDocument(): Record<string, any> {
  return load().document;
}

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The documented response of an operation for a status, if any. */
export function documentedResponse(route: RouteName, status: number): ResponseSpec | undefined {
  const definition = ROUTES.find((r) => r.name === route)!;
  return load().document.paths[definition.path]?.[definition.method.toLowerCase()]?.responses?.[String(status)];
}

/** A validator of a JSON Schema found at a JSON pointer inside the document. */
export function schemaValidator(jsonPointer: string): ValidateFunction {
  const { ajv, validators } = load();
  let validate = validators.get(jsonPointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${jsonPointer}` });
    validators.set(jsonPointer, validate);
  }
  return validate;
}

/** Validator of the JSON body documented for `route` and `status`. */
export function responseValidator(route: RouteName, status: number): ValidateFunction {
  const definition = ROUTES.find((r) => r.name === route)!;
  return schemaValidator(
    `/${pointer('paths', definition.path, definition.method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`,
  );
}

const CHECKED_HEADERS = ['idempotent-replayed', 'www-authenticate', 'retry-after', 'link', 'x-next-cursor'];

/** Problems of one response with the contract (empty when it conforms). */
export function contractViolations(
  route: RouteName,
  response: { status: number; headers: Record<string, string>; body: unknown },
): string[] {
  const documented = documentedResponse(route, response.status);
  if (!documented) return [`status ${response.status} is not documented for ${route}`];
  const problems: string[] = [];
  const contentType =
    Object.entries(response.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  // The hosted pages and PDFs (docs/sending-invoices.md) answer text/html or application/pdf, the listings may answer
  // text/csv too (docs/api.md "CSV"): whichever the response is, the document must name it.
  const documentedMedia = Object.keys(documented.content ?? {});
  // A redirect (the pay button's 303) has no body to check.
  if (documented.content === undefined && response.status >= 300 && response.status < 400) return [];
  const media =
    documentedMedia.find((type) => contentType.startsWith(type)) ?? documentedMedia[0] ?? 'application/json';
  if (!contentType.startsWith(media)) problems.push(`content-type ${contentType || '(none)'} is not ${media}`);
  const documentedHeaders = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
  for (const name of Object.keys(response.headers ?? {}).map((n) => n.toLowerCase())) {
    if (CHECKED_HEADERS.includes(name) && !documentedHeaders.includes(name))
      problems.push(`header ${name} is not documented for ${response.status}`);
  }
  // A CSV answer's body is text, not JSON: it must say it is UTF-8.
  if (media === 'text/csv' && contentType !== 'text/csv; charset=utf-8')
    problems.push(`content-type ${contentType} is not UTF-8 CSV`);
  if (media !== 'application/json') return problems;
  const validate = responseValidator(route, response.status);
  if (!validate(response.body)) {
    for (const error of validate.errors ?? [])
      problems.push(`body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
  }
  return problems;
}

/** Every (route, status, code) seen by this worker, for the coverage check of test/openapi/contract.test.ts. */
export const seenResponses: { route: RouteName; status: number; code: string | undefined }[] = [];

/** Throws when a response breaks the contract; called by `call()` for every response. */
export function assertContract(
  route: RouteName,
  response: { status: number; headers: Record<string, string>; body: unknown; rawBody: string },
): void {
  const code = (response.body as { code?: string } | undefined)?.code;
  seenResponses.push({ route, status: response.status, code });
  const problems = contractViolations(route, response);
  if (problems.length > 0) {
    throw new Error(
      `Response of ${route} breaks the OpenAPI contract (shared/openapi/):\n  ${problems.slice(0, 10).join('\n  ')}\n` +
        `body: ${response.rawBody.slice(0, 2000)}`,
    );
  }
}
