/**
 * Secret keys as the API sees them (docs/operations.md "Keys"): a key authenticates only while it is
 * neither revoked nor past its expiry, and its account is not disabled. Timestamps are the stored
 * `YYYY-MM-DD HH:MM:SS` UTC strings.
 */
export interface KeyState {
  revokedAt?: string | undefined;
  expiresAt?: string | undefined;
}

/** Milliseconds since the epoch of a stored `YYYY-MM-DD HH:MM:SS` UTC timestamp. */
export function timestampToMs(timestamp: string): number {
  return Date.parse(`${timestamp.replace(' ', 'T')}Z`);
}

/** The stored form of an instant: `YYYY-MM-DD HH:MM:SS` in UTC. */
export function msToTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** When the key stops working by expiry (ms), or undefined for a key without expiry. */
export function keyExpiryMs(key: KeyState): number | undefined {
  if (key.expiresAt === undefined) return undefined;
  const ms = timestampToMs(key.expiresAt);
  // An unreadable expiry fails closed: the key is treated as already expired.
  return Number.isNaN(ms) ? 0 : ms;
}

/** True when the key may authenticate at `nowMs`: not revoked, not expired. */
export function isKeyUsable(key: KeyState, nowMs: number): boolean {
  if (key.revokedAt !== undefined) return false;
  const expiry = keyExpiryMs(key);
  return expiry === undefined || nowMs < expiry;
}

/** The instant `days` whole days after `nowMs`, in the stored form. */
export function expiryAfterDays(nowMs: number, days: number): string {
  return msToTimestamp(nowMs + days * 86_400_000);
}
