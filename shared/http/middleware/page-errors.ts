/**
 * The error answers of the routes people open (docs/sending-invoices.md "Errors"): HTML pages, never the JSON
 * envelope — a 404 page, or a "cannot be shown right now" page for a 5xx (503 with `Retry-After`). Internals never
 * reach the page; the request log still records the error code.
 */
import { failure } from '../../outcome.ts';
import { renderNotFoundPage, renderUnavailablePage } from '../../render/invoice-page.ts';
import { toApiError, withOutcome } from '../envelope.ts';
import { pageResponse } from '../page-responses.ts';
import { type ApiMiddleware, requestIdOf } from './types.ts';

export function pageErrors(): ApiMiddleware {
  return {
    name: 'pageErrors',
    onError: (request) => {
      const error = toApiError(request.error);
      const outcome = failure(error, requestIdOf(request));
      const retryAfter: Record<string, string> =
        error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
      // A route with only a token in its path can fail only for lack of an invoice (4xx) or on our side (5xx).
      const response =
        error.status < 500
          ? pageResponse(error.status, renderNotFoundPage())
          : pageResponse(error.status, renderUnavailablePage(), retryAfter);
      request.response = withOutcome(response, outcome);
    },
  };
}
