/**
 * Path parameters, checked in one place for every route (docs/decisions.md "Path parameters"): after
 * authentication and before the body and any database call, each of the route's parameters must match its kind's
 * pattern whole (shared/path-parameters.ts); anything else names nothing, and gets exactly the 404 an unknown value
 * of that kind gets. Values are not trimmed: `/payments/%201/reversal` names no payment.
 */
import { notFound, type Refusal } from '../../domain/refusal.ts';
import { PATH_PARAMETER_KINDS, type PathParameterKind } from '../../path-parameters.ts';
import type { ApiMiddleware } from './types.ts';

/** The 404 an unknown value of this kind gets. */
export const unknownValueOf = (kind: PathParameterKind): Refusal => notFound(PATH_PARAMETER_KINDS[kind].notFound);

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
