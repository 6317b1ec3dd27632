/**
 * History cursors (docs/api.md "Payment history and pagination"): opaque, HMAC-signed with the account's secret, carrying the period, the
 * effective date range and the position. Another account's cursor fails the signature check.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Period } from './periods';

export interface CursorState {
  period: Period;
  /** Effective range, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Exclusive start key of the next page. */
  after: Record<string, string>;
}

const sign = (secret: string, payload: string): Buffer => createHmac('sha256', Buffer.from(secret, 'base64')).update(payload).digest();

export function encodeCursor(secret: string, state: CursorState): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, p: state.period, f: state.from, t: state.to, a: state.after })).toString('base64url');
  return `${payload}.${sign(secret, payload).toString('base64url')}`;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The cursor's state, or undefined when it is malformed or its signature does not verify. */
export function decodeCursor(secret: string, cursor: string): CursorState | undefined {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const expected = sign(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const after = state.a as Record<string, unknown>;
    if (state.v !== 1 || typeof state.p !== 'string' || typeof state.f !== 'string' || typeof state.t !== 'string') return undefined;
    if (!ISO_DATE.test(state.f) || !ISO_DATE.test(state.t) || !after || typeof after !== 'object') return undefined;
    if (!Object.values(after).every((v) => typeof v === 'string')) return undefined;
    return { period: state.p as Period, from: state.f, to: state.t, after: after as Record<string, string> };
  } catch {
    return undefined;
  }
}
