/** A business decision: what to do, or the refusal (an error with its 403/404/409 code) to answer instead. */
import type { ApiError } from '../errors.ts';

export type Decision<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const accept = <T>(value: T): Decision<T> => ({ ok: true, value });

export const refuse = <T = never>(error: ApiError): Decision<T> => ({ ok: false, error });
