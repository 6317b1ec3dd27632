/**
 * Listing cursors (docs/api.md "Payment history and pagination"): opaque, HMAC-signed with the account's secret,
 * carrying the position and, for histories, the period, the effective date range and the `payment_status` filter.
 * Another account's cursor fails the signature check; each service checks the position lies in its own listing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PERIODS, type Period } from '../domain/periods.ts';
import { isRecord } from '../guards.ts';
import type { HistoryPosition } from '../services/history-listing.ts';

/** What a cursor carries: where the next page of a listing starts (the service's own position). */
export interface CursorState {
  period?: Period | undefined;
  /** Effective range, YYYY-MM-DD. */
  from?: string | undefined;
  to?: string | undefined;
  /** The `payment_status` filter the listing was started with. */
  status?: string | undefined;
  /** A report's listing: which one, and the filters it was started with (the aging report's: report-page.ts). */
  listing?: Record<string, string> | undefined;
  after: Record<string, string>;
}

/** A history's position from a cursor's state: only a cursor made by a history has its period and range. */
export function historyPositionOf(state: CursorState): HistoryPosition | undefined {
  const { period, from, to, after, status } = state;
  if (period === undefined || from === undefined || to === undefined || state.listing !== undefined) return undefined;
  return { period, from, to, after, ...(status === undefined ? {} : { status }) };
}

const sign = (secret: string, payload: string): Buffer =>
  createHmac('sha256', Buffer.from(secret, 'base64')).update(payload).digest();

export function encodeCursor(secret: string, state: CursorState): string {
  const payload = Buffer.from(
    JSON.stringify({
      v: 1,
      p: state.period,
      f: state.from,
      t: state.to,
      s: state.status,
      l: state.listing,
      a: state.after,
    }),
  ).toString('base64url');
  return `${payload}.${sign(secret, payload).toString('base64url')}`;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const isIsoDate = (value: unknown): value is string => typeof value === 'string' && ISO_DATE.test(value);
const isPeriod = (value: unknown): value is Period => PERIODS.some((period) => period === value);
const isPosition = (value: unknown): value is Record<string, string> =>
  isRecord(value) && Object.values(value).every((v) => typeof v === 'string');

/** The cursor's state, or undefined when it is malformed or its signature does not verify. */
export function decodeCursor(secret: string, cursor: string): CursorState | undefined {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const expected = sign(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(state) || state.v !== 1 || !isPosition(state.a)) return undefined;
  const optional = (value: unknown, valid: (v: unknown) => boolean) => value === undefined || valid(value);
  if (!optional(state.p, isPeriod) || !optional(state.f, isIsoDate) || !optional(state.t, isIsoDate)) return undefined;
  if (!optional(state.s, (v) => typeof v === 'string') || !optional(state.l, isPosition)) return undefined;
  return {
    period: state.p as Period | undefined,
    from: state.f as string | undefined,
    to: state.t as string | undefined,
    status: state.s as string | undefined,
    listing: state.l as Record<string, string> | undefined,
    after: state.a,
  };
}
