/**
 * Path parameters, checked in one place for every route (docs/decisions.md "Path parameters"): after
 * authentication and before the body and any database call, each of the route's parameters must match its kind's
 * pattern whole (shared/path-parameters.ts); anything else names nothing, and gets exactly the 404 an unknown value
 * of that kind gets. Values are not trimmed: `/payments/%201/reversal` names no payment.
 */
import { NotFoundError } from '../../errors.ts';
import { PATH_PARAMETER_KINDS, type PathParameterKind } from '../../path-parameters.ts';
import type { ApiMiddleware } from './types.ts';

/** The messages of the 404s the services answer for an unknown invoice, payment or client. */
const NOT_FOUND_MESSAGES = {
  invoice_not_found: 'Invoice not found',
  payment_not_found: 'Payment not found',
  client_not_found: 'Client not found',
} as const;

/** The 404 an unknown value of this kind gets. */
export function unknownValueOf(kind: PathParameterKind): NotFoundError {
  const code = PATH_PARAMETER_KINDS[kind].notFound;
  return new NotFoundError(code, NOT_FOUND_MESSAGES[code]);
}

/** Whether `value` can name something of this kind (the kind's pattern, matched whole). */
export const isValueOfKind = (kind: PathParameterKind, value: string | undefined): value is string =>
  value !== undefined && PATH_PARAMETER_KINDS[kind].pattern.test(value);

export function pathParameterCheck(parameters: Readonly<Record<string, PathParameterKind>> = {}): ApiMiddleware {
  const declared = Object.entries(parameters);
  return {
    name: 'pathParameterCheck',
    before: (request) => {
      const values = request.event.pathParameters ?? {};
      for (const [name, kind] of declared) if (!isValueOfKind(kind, values[name])) throw unknownValueOf(kind);
    },
  };
}
