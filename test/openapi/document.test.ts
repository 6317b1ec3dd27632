/**
 * The committed `openapi.json` is current (regenerate with `npm run openapi`), is a valid OpenAPI 3.1
 * document for a real validator, documents every error code with its status, and its examples — captured
 * from real responses — validate against the schemas they illustrate.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../shared/http/errors.ts';
import { buildOpenApiDocument, ROUTING_ERRORS, renderOpenApiDocument } from '../../shared/openapi/document.ts';
import { ROUTES } from '../../shared/routes.ts';
import { schemaValidator } from '../support/contract.ts';

const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');

/**
 * Refusal codes the domain decides already whose route is not built yet (the credit-note route answers
 * `credit_exceeds_invoice`): in the table and the overview, on no operation. Remove a code here when its route lists it.
 */
const AWAITING_ROUTE: readonly string[] = [];

describe('openapi.json', () => {
  it('is up to date (run `npm run openapi` after changing schemas, responses or examples)', () => {
    expect(
      committed === renderOpenApiDocument(),
      'openapi.json is out of date: run `npm run openapi` and commit it',
    ).toBe(true);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(committed));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('has every route of the route table as an operation, with bearer security, its body, path parameters and the Idempotency-Key header on the keyed writes', () => {
    const document = buildOpenApiDocument() as any;
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    const keyed = [
      'add-invoice',
      'add-payment',
      'add-client',
      'reverse-payment',
      'send-invoice',
      'email-invoice',
      'invoice-reminders',
      'create-recurring-invoice',
      'pause-recurring-invoice',
      'resume-recurring-invoice',
      'cancel-recurring-invoice',
      'send-client-statement',
      'create-credit-note',
    ];
    for (const route of ROUTES) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      // A provider's webhook is JSON as its sender sends it (docs/getting-paid-online.md "Webhooks").
      if (route.takesBody && route.access === 'provider')
        expect(Object.keys(operation.requestBody.content)).toEqual(['application/json']);
      else if (route.takesBody)
        expect(Object.keys(operation.requestBody.content)).toEqual([
          'application/json',
          'application/x-www-form-urlencoded',
        ]);
      else expect(operation.requestBody).toBeUndefined();
      const pathParameters = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const parameters = (operation.parameters ?? []).map(
        (p: { $ref: string }) => document.components.parameters[p.$ref.split('/').at(-1)!],
      );
      expect(parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(pathParameters);
      const idempotent = keyed.includes(route.name);
      expect(
        parameters.some((p: any) => p.name === 'Idempotency-Key'),
        route.name,
      ).toBe(idempotent);
      const success = Object.entries<any>(operation.responses).find(([status]) => Number(status) < 300)?.[1];
      if (route.answers === 'pdf') expect(Object.keys(success.content)).toEqual(['application/pdf']);
      else if (route.answers === 'html') expect(Object.keys(success.content)).toEqual(['text/html']);
      else if (route.answers === 'xml') expect(Object.keys(success.content)).toEqual(['application/xml']);
      else expect(success.content['application/json'].examples, route.name).toBeDefined();
      if (idempotent) expect(success.headers['Idempotent-Replayed']).toBeDefined();
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
    });
  });

  it('documents every error code of ERROR_STATUS under its HTTP status', () => {
    const document = buildOpenApiDocument() as any;
    const documented = new Map<string, Set<number>>();
    const collect = (response: any, status: number) => {
      // The hosted pages answer their errors as HTML pages (docs/sending-invoices.md): no code.
      if (!response.content['application/json']) return;
      const schema = response.content['application/json'].schema;
      for (const code of schema.allOf[1].properties.code.enum as string[]) {
        if (!documented.has(code)) documented.set(code, new Set());
        documented.get(code)!.add(status);
      }
    };
    for (const route of ROUTES) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (Number(status) >= 400) collect(response, Number(status));
      }
    }
    collect(document.components.responses.RouteNotFound, 404);
    collect(document.components.responses.MethodNotAllowed, 405);
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect([...(documented.get(code) ?? [])], code).toEqual(AWAITING_ROUTE.includes(code) ? [] : [status]);
    }
    expect(ROUTING_ERRORS.every((code: ErrorCode) => documented.has(code))).toBe(true);
    for (const code of Object.keys(ERROR_STATUS)) expect(document.info.description).toContain(`\`${code}\``);
  });

  it('has examples captured from real responses that validate against their schemas', () => {
    const document = buildOpenApiDocument() as any;
    let checked = 0;
    const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    const check = (base: string, response: any) => {
      const media = response.content?.['application/json'];
      if (!media) return; // an HTML page, a PDF or a redirect
      const validate = schemaValidator(`${base}/content/application~1json/schema`);
      for (const [name, example] of Object.entries<any>(media.examples ?? {})) {
        expect(validate(example.value), `${base} ${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        checked++;
      }
    };
    for (const route of ROUTES) {
      const method = route.method.toLowerCase();
      const operation = document.paths[route.path][method];
      for (const [status, response] of Object.entries<any>(operation.responses))
        check(`/paths/${escapePointer(route.path)}/${method}/responses/${status}`, response);
      // Every documented error code of the operation has an example.
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (Number(status) < 400 || !response.content?.['application/json']) continue;
        const codes = response.content['application/json'].schema.allOf[1].properties.code.enum;
        const exampleCodes = Object.values<any>(response.content['application/json'].examples ?? {}).map(
          (e) => e.value.code,
        );
        expect(exampleCodes.sort(), `${route.name} ${status}`).toEqual([...codes].sort());
      }
    }
    check('/components/responses/RouteNotFound', document.components.responses.RouteNotFound);
    check('/components/responses/MethodNotAllowed', document.components.responses.MethodNotAllowed);
    expect(checked).toBeGreaterThan(30);
  });

  it('knows outcome_unknown (504) on the writes, the flat client and GET /payments/history', () => {
    const document = buildOpenApiDocument() as any;
    for (const path of ['/invoices', '/payments']) {
      expect(
        document.paths[path].post.responses['504'].content['application/json'].schema.allOf[1].properties.code.enum,
      ).toEqual(['outcome_unknown']);
    }
    expect(document.paths['/payments/history'].post.responses['504']).toBeUndefined();
    for (const field of ['first_name', 'last_name', 'email', 'phone', 'company_name']) {
      expect(document.components.schemas.AddInvoiceRequest.properties[field].description).toMatch(/^Flat client/);
    }
    const get = document.paths['/payments/history'].get;
    expect(get.operationId).toBe('getPaymentsWithGet');
    expect(Object.keys(get.requestBody.content)).toEqual(['application/json']);
    expect(get.responses).toEqual(document.paths['/payments/history'].post.responses);
  });
});
