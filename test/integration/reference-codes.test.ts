/** docs/api.md "Add invoice": reference codes are unique across the whole service, enforced by a conditional write. */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, createInvoice, invoiceBody, newAccount } from '../support/api.ts';

// The generator under test is replaced by a queue: codes pushed here come out first, then random ones.
const forced: string[] = [];
vi.mock('../../shared/domain/reference-code.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/domain/reference-code.ts')>();
  return { ...original, generateReferenceCode: () => forced.shift() ?? original.generateReferenceCode() };
});

describe('reference code collisions', () => {
  it('never overwrites another invoice: a colliding code fails its condition and a new code is drawn', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const existing = await createInvoice(owner.key);

    forced.push(existing.reference_code, existing.reference_code);
    const result = await call('add-invoice', { key: other.key, body: invoiceBody() });

    expect(result.status).toBe(201);
    expect(result.body.data.reference_code).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(result.body.data.reference_code).not.toBe(existing.reference_code);
    expect(forced).toHaveLength(0); // both colliding draws were tried and refused
    const header = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.invoiceHeader(existing.reference_code),
        ConsistentRead: true,
      }),
    );
    const body = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.invoiceBody(existing.reference_code), ConsistentRead: true }),
    );
    expect(header.Item?.company_id).toBe(owner.account.companyId);
    expect(body.Item?.invoice_id).toBe(existing.id);
    expect(body.Item?.client_id).toBe(Number(existing.client_id));
  });
});
