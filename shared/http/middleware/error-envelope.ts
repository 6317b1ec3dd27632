/**
 * Every failure (our errors, the JSON parser's, zod's, DynamoDB's, timeouts) leaves as the error envelope.
 * Internals (messages, stacks, AWS error text) never reach the client: unknown errors become a 500 or 503.
 */

import { writeMayHaveCommitted } from '../../call-deadline.ts';
import { errorResponse, toApiError } from '../envelope.ts';
import { ApiError, OutcomeUnknownError } from '../errors.ts';
import { type ApiMiddleware, requestIdOf } from './types.ts';

/** @middy/http-json-body-parser reports malformed JSON as a 415; the body gate already decided the type, so it is a 400. */
function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const status = error && typeof error === 'object' && 'statusCode' in error ? error.statusCode : undefined;
  if (status === 415) return new ApiError('invalid_json', 'The request body is not valid JSON.');
  return toApiError(error);
}

/**
 * A 5xx after a transaction that committed (or may have) must not invite a plain retry: it is a 504
 * `outcome_unknown` (docs/api.md "Ambiguous outcomes").
 */
function classify(error: unknown): ApiError {
  const apiError = asApiError(error);
  if (apiError.status >= 500 && apiError.code !== 'outcome_unknown' && writeMayHaveCommitted())
    return new OutcomeUnknownError(error);
  return apiError;
}

export interface ErrorEnvelopeOptions {
  /** Maps any thrown value to the ApiError to answer. */
  classify: (error: unknown) => ApiError;
}

const defaults: ErrorEnvelopeOptions = { classify };

export function errorEnvelope(opts: Partial<ErrorEnvelopeOptions> = {}): ApiMiddleware {
  const options = { ...defaults, ...opts };
  return {
    name: 'errorEnvelope',
    onError: (request) => {
      request.response = errorResponse(options.classify(request.error), requestIdOf(request));
    },
  };
}
