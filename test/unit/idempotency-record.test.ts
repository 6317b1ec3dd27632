import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outcomeResponse } from '../../shared/http/envelope.ts';
import { ApiError, failureOf } from '../../shared/http/errors.ts';
import { type Outcome, success } from '../../shared/outcome.ts';
import { idempotencyRequest, interpretRecord, recordPut } from '../../shared/store/write-executor.ts';

const request = idempotencyRequest(1, 'add-payment', 'key-1', { amount: 100 });

/** The item recordPut writes, as the table returns it. */
const storedItem = (outcome: Outcome) => recordPut('table', request, outcome).Put.Item;

const replayOf = (item: Record<string, unknown>) => {
  const state = interpretRecord(request, item);
  if (state.state !== 'match') throw new Error(`expected a match, got ${state.state}`);
  return state.response;
};

describe('idempotency fingerprints', () => {
  it('ignore key order and undefined fields, at every depth (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (body) => {
        // Prepare
        const reversed = Object.fromEntries(Object.entries(body).reverse());
        // Act
        const a = idempotencyRequest(1, 'add-invoice', 'k', { ...body, extra: undefined, nested: { b: 1, a: [body] } });
        const b = idempotencyRequest(1, 'add-invoice', 'k', { nested: { a: [reversed], b: 1 }, ...reversed });
        // Assess
        expect(a.fingerprint).toBe(b.fingerprint);
      }),
    );
  });

  it('differ when any value differs, including its type', () => {
    // Act
    const prints = [{ amount: 100 }, { amount: 101 }, { amount: '100' }, { amount: [100] }, { amount: null }, {}].map(
      (body) => idempotencyRequest(1, 'add-payment', 'k', body).fingerprint,
    );
    // Assess
    expect(new Set(prints).size).toBe(prints.length);
  });

  it('never store the key itself, only its hash, scoped to account and route', () => {
    // Act
    const a = idempotencyRequest(1, 'add-payment', 'secret-key', {});
    const b = idempotencyRequest(2, 'add-payment', 'secret-key', {});
    // Assess
    expect(JSON.stringify(recordPut('t', a, success(201, {})))).not.toContain('secret-key');
    expect(recordPut('t', a, success(201, {})).Put.Item.PK).not.toBe(recordPut('t', b, success(201, {})).Put.Item.PK);
  });
});

describe('idempotency records', () => {
  it('give back the stored outcome, so a replay is byte-identical to the first response (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.string(), { nil: undefined }), (data, message) => {
        // Prepare
        const first = success(201, data, message);
        // Act
        const replay = replayOf(storedItem(first));
        // Assess
        expect(outcomeResponse(replay).body).toBe(outcomeResponse(first).body);
      }),
    );
  });

  it("keep a refusal with the first request's id", () => {
    // Prepare
    const first = failureOf(new ApiError('invoice_not_found', 'Invoice not found'), 'first-request');
    // Act
    const replay = replayOf(storedItem(first));
    // Assess
    expect(replay).toEqual(first);
    expect(outcomeResponse(replay).body).toBe(
      '{"status":"error","code":"invoice_not_found","message":"Invoice not found","errors":[],"request_id":"first-request"}',
    );
  });

  it('replay a refusal stored with its status (before statuses were left to shared/http) as the same response', () => {
    // Prepare: the outcome as the previous version stored it
    const stored = { status: 409, code: 'invoice_deleted', message: 'Deleted.', errors: [], requestId: 'r-0' };
    const item = { ...storedItem(success(201, null)), outcome_gz: gzipSync(JSON.stringify(stored)) };
    // Act
    const replay = replayOf(item);
    // Assess
    expect(outcomeResponse(replay)).toMatchObject({
      statusCode: 409,
      body: '{"status":"error","code":"invoice_deleted","message":"Deleted.","errors":[],"request_id":"r-0"}',
    });
  });

  it('refuse a record holding no outcome (the format before outcomes were stored has expired everywhere)', () => {
    // Prepare: the previous format, whose records lived 24 h after 2026-11-22
    const item = {
      ...storedItem(success(201, null)),
      outcome_gz: undefined,
      status_code: 201,
      body_gz: gzipSync('{"status":"success","message":"Payment successful.","data":{"id":1,"amount":"1.00"}}'),
    };
    // Act, Assess
    expect(() => replayOf(item)).toThrow('Unreadable idempotency record');
  });

  it('are absent once expired, and a mismatch for another request body', () => {
    // Prepare
    const item = storedItem(success(201, {}));
    // Act, Assess
    expect(interpretRecord(request, { ...item, expires_at: Math.floor(Date.now() / 1000) - 1 })).toEqual({
      state: 'absent',
    });
    expect(interpretRecord(idempotencyRequest(1, 'add-payment', 'key-1', { amount: 101 }), item)).toEqual({
      state: 'mismatch',
    });
    expect(interpretRecord(request, undefined)).toEqual({ state: 'absent' });
  });
});
