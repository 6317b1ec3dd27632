/**
 * The OpenAPI `webhooks` section: one POST per event type, whose captured real deliveries validate
 * against their schemas and carry signatures that verify with the capture's secret.
 */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../shared/domain/webhook-events.ts';
import { secretKeyBytes, verifySignature } from '../../shared/domain/webhook-signature.ts';
import { buildOpenApiDocument } from '../../shared/openapi/document.ts';
import captured from '../../shared/openapi/webhook-examples.json' with { type: 'json' };
import { schemaValidator } from '../support/contract.ts';

const events = captured.events as Record<string, { headers: Record<string, string>; body: Record<string, unknown> }>;

describe('openapi webhooks', () => {
  it.each(WEBHOOK_EVENT_TYPES)(
    '%s: documented with its headers, and its captured delivery validates and verifies',
    (type) => {
      // Prepare
      const document = buildOpenApiDocument() as any;
      const operation = document.webhooks[type].post;
      const example = events[type]!;
      // Assess
      expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const schemaRef = operation.requestBody.content['application/json'].schema.$ref as string;
      const validate = schemaValidator(`/components/schemas/${schemaRef.split('/').pop()}`);
      expect(validate(example.body), JSON.stringify(validate.errors)).toBe(true);
      expect(operation.requestBody.content['application/json'].examples.delivered.value).toEqual(example.body);
      expect(example.body.type).toBe(type);
      expect(example.headers['webhook-id']).toBe(example.body.id);
      const key = secretKeyBytes(captured.secret);
      const timestamp = Number(example.headers['webhook-timestamp']);
      expect(
        verifySignature(
          key,
          example.body.id as string,
          timestamp,
          JSON.stringify(example.body),
          example.headers['webhook-signature']!,
        ),
      ).toBe(true);
    },
  );

  it('a schema refuses an event of another type', () => {
    const validate = schemaValidator('/components/schemas/InvoicePaidEvent');
    expect(validate(events['invoice.created']!.body)).toBe(false);
  });
});
