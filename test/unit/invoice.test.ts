import { describe, expect, it } from 'vitest';
import { buildInvoice, type ClientRecord, decideInvoice, newClient } from '../../shared/domain/invoice.ts';
import { type AddInvoiceInput, addInvoiceSchema } from '../../shared/schemas/invoice.ts';
import { parseRequest } from '../../shared/validation.ts';

const NOW = '2026-11-22 10:00:00';

const request = (overrides: Record<string, unknown> = {}): AddInvoiceInput =>
  parseRequest(addInvoiceSchema, {
    client: { first_name: 'Ada', last_name: 'Obi', email: 'Ada@Example.com', phone: '+2348012345678' },
    due_date: '12/30/2030',
    fee_bearer: 'client',
    items: [{ item: 'Design', description: '5 pages', unit_cost: '1,500.50', quantity: '2' }],
    ...overrides,
  });

const existing: ClientRecord = newClient(1, 9, request().client!, NOW);
const tokenizing = { tokenizationEnabled: true };
const plain = { tokenizationEnabled: false };

describe('decideInvoice', () => {
  it('creates the inline client when no client has its email', () => {
    // Prepare
    const input = request();
    // Act
    const result = decideInvoice(plain, input, { client: undefined, merchantRefTaken: false });
    // Assess
    expect(result).toEqual({ ok: true, value: { create: input.client } });
  });

  it('uses the client found (by id or by email)', () => {
    // Act
    const result = decideInvoice(plain, request(), { client: existing, merchantRefTaken: false });
    // Assess
    expect(result).toEqual({ ok: true, value: { existing } });
  });

  it('answers client_not_found when client_id names no client', () => {
    // Prepare
    const input = request({ client: undefined, client_id: 404 });
    // Act
    const result = decideInvoice(plain, input, { client: undefined, merchantRefTaken: false });
    // Assess
    expect(!result.ok && result.refusal.code).toBe('client_not_found');
  });

  it('answers duplicate_merchant_ref when the merchant_ref is taken', () => {
    // Act
    const result = decideInvoice(plain, request({ merchant_ref: 'A-1' }), { client: existing, merchantRefTaken: true });
    // Assess
    expect(!result.ok && result.refusal.code).toBe('duplicate_merchant_ref');
    expect(!result.ok && result.refusal.errors).toEqual([
      { code: 'conflict', field: 'merchant_ref', message: 'must be unique within your account' },
    ]);
  });

  it('refuses tokenize=true without tokenization, before any other refusal', () => {
    // Act
    const result = decideInvoice(plain, request({ client: undefined, client_id: 404, tokenize: 'true' }), {
      client: undefined,
      merchantRefTaken: true,
    });
    // Assess
    expect(!result.ok && result.refusal.code).toBe('tokenization_not_enabled');
  });

  it('allows tokenize=true when the account has tokenization, and tokenize=false for any account', () => {
    // Act, Assess
    expect(
      decideInvoice(tokenizing, request({ tokenize: true }), { client: existing, merchantRefTaken: false }).ok,
    ).toBe(true);
    expect(decideInvoice(plain, request({ tokenize: false }), { client: existing, merchantRefTaken: false }).ok).toBe(
      true,
    );
  });

  it('checks merchant_ref before the client (a taken ref with an unknown client_id is a 409)', () => {
    // Act
    const result = decideInvoice(plain, request({ client: undefined, client_id: 404, merchant_ref: 'A-1' }), {
      client: undefined,
      merchantRefTaken: true,
    });
    // Assess
    expect(!result.ok && result.refusal.code).toBe('duplicate_merchant_ref');
  });
});

describe('newClient', () => {
  it('fills the fields the request does not carry with their defaults', () => {
    // Act
    const client = newClient(1, 9, request().client!, NOW);
    // Assess
    expect(client).toMatchObject({
      id: 9,
      companyId: 1,
      name: '',
      website: '',
      address: '',
      type: 'Customer',
      accountName: '',
      createdAt: NOW,
      updatedAt: NOW,
    });
  });
});

describe('buildInvoice', () => {
  it('starts unpaid at version 1, counted in aging, with the exact total, line ids derived from the invoice id', () => {
    // Act
    const invoice = buildInvoice(
      request(),
      existing,
      { invoiceId: 3, referenceCode: 'R'.repeat(20), hostedToken: 'T'.repeat(24) },
      'NGN',
      NOW,
    );
    // Assess
    expect(invoice.balance).toEqual({
      totalKobo: 300_100,
      amountPaidKobo: 0,
      amountDueKobo: 300_100,
      paymentStatus: 'unpaid',
      paidAt: null,
      paymentsCount: 0,
      deletedAt: null,
      version: 1,
      updatedAt: NOW,
      // counted in the receivables rows from the start (docs/data-design.md "Receivables")
      inAging: true,
    });
    expect(invoice.details.lines.map((line) => line.id)).toEqual(['3001']);
    expect(invoice.details).toMatchObject({ feeBearer: 'client', clientId: 9, companyId: 1, currency: 'NGN' });
    expect(invoice.details.hostedToken).toBe('T'.repeat(24));
  });
});
