/** A business decision: what to do, or the refusal to answer instead (domain/refusal.ts: a code, no HTTP status). */
import type { Refusal } from './refusal.ts';

export type Decision<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export const accept = <T>(value: T): Decision<T> => ({ ok: true, value });

export const refuse = <T = never>(refusal: Refusal): Decision<T> => ({ ok: false, refusal });
