/**
 * Path parameters: the kinds of value a route's `{name}` can hold, declared once (shared/routes.ts gives each
 * parameter of each route its kind), and how a concrete path is matched against a route path.
 */

import { CREDIT_NOTE_NUMBER_PATTERN } from './domain/document-number.ts';
import { HOSTED_TOKEN_PATTERN } from './domain/hosted-token.ts';
import { HOOK_ID_PATTERN } from './domain/paystack-connection.ts';
import { RECURRING_ID_PATTERN } from './domain/recurring-invoice.ts';
import type { NotFoundCode } from './domain/refusal.ts';
import { CARD_TOKEN_PATTERN } from './domain/saved-card.ts';

/**
 * What a path parameter can name, declared once: the pattern a value must match whole (no trimming), and the 404
 * every route answers for a value that does not match — the one an unknown value of that kind gets. The API
 * functions check every route's parameters before any database call (shared/http/middleware/path-parameters.ts;
 * docs/decisions.md "Path parameters").
 */
export const PATH_PARAMETER_KINDS = {
  /** An invoice's reference code: generated as 20 alphanumerics; at most 64 are accepted. */
  referenceCode: { pattern: /^[A-Za-z0-9]{1,64}$/, notFound: 'invoice_not_found' },
  /** A payment id: a positive integer, as ids are issued, without sign, spaces or leading zeros. */
  paymentId: { pattern: /^[1-9][0-9]{0,14}$/, notFound: 'payment_not_found' },
  /** A client id: as a payment id. */
  clientId: { pattern: /^[1-9][0-9]{0,14}$/, notFound: 'client_not_found' },
  /** A hosted page's token: 18 random bytes in base64url (shared/domain/hosted-token.ts); its 404 is a page. */
  hostedToken: { pattern: HOSTED_TOKEN_PATTERN, notFound: 'invoice_not_found' },
  /** The id of an account's Paystack webhook URL: 18 random bytes in base64url (shared/domain/paystack-connection.ts). */
  paystackHookId: { pattern: HOOK_ID_PATTERN, notFound: 'hook_not_found' },
  /** A saved card's token: `ctok_` and 18 random bytes in base64url (shared/domain/saved-card.ts). */
  cardToken: { pattern: CARD_TOKEN_PATTERN, notFound: 'card_not_found' },
  /** A recurring series' id: `rec_` and a ULID (shared/domain/recurring-invoice.ts). */
  recurringId: { pattern: RECURRING_ID_PATTERN, notFound: 'recurring_not_found' },
  /** A credit note's number as issued: `CN-` and at least six digits (shared/domain/document-number.ts). */
  creditNoteNumber: { pattern: CREDIT_NOTE_NUMBER_PATTERN, notFound: 'credit_note_not_found' },
} as const satisfies Record<string, { pattern: RegExp; notFound: NotFoundCode }>;

export type PathParameterKind = keyof typeof PATH_PARAMETER_KINDS;

/** The names of a route path's parameters, in order (`/payments/{id}/reversal` → `['id']`). */
export const pathParameterNames = (path: string): string[] =>
  [...path.matchAll(/\{([^}+]+)\}/g)].map((match) => match[1]!);

/** Whether a route path has path parameters (API Gateway prefers a literal segment to a parameter). */
export const hasPathParameters = (path: string): boolean => path.includes('{');

/**
 * Matches a concrete request path against a route path, API Gateway style: a parameter is one non-empty
 * segment, percent-decoded. Returns the parameters, or undefined when the path does not match.
 */
export function matchRoutePath(routePath: string, path: string): Record<string, string> | undefined {
  const want = routePath.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const parameters: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const pattern = want[i]!;
    const segment = got[i]!;
    const parameter = /^\{([^}+]+)\}$/.exec(pattern);
    if (!parameter) {
      if (pattern !== segment) return undefined;
      continue;
    }
    if (segment === '') return undefined;
    parameters[parameter[1]!] = safeDecode(segment);
  }
  return parameters;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
