/** Outcome of parsing untrusted input: a value, or one human-readable line saying what was expected. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Wraps a parsed value. */
export function ok<T>(value: T): ParseResult<T> {
  return { ok: true, value };
}

/** Wraps a rejection message. */
export function fail<T = never>(message: string): ParseResult<T> {
  return { ok: false, message };
}
