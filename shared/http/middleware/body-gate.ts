/**
 * The body gate, after authentication and before JSON parsing: size (413), content type (415), and form
 * bodies parsed into the same object a JSON body gives (rules in shared/http/body.ts).
 */
import { MAX_BODY_BYTES, prepareBody } from '../body.ts';
import type { ApiMiddleware } from './types.ts';

export interface BodyGateOptions {
  /** Largest decoded body accepted. */
  maxBytes: number;
  /** An empty body means `{}` (a route whose body is optional, e.g. `POST /invoices/{reference_code}/send`). */
  emptyIsObject: boolean;
}

const defaults: BodyGateOptions = { maxBytes: MAX_BODY_BYTES, emptyIsObject: false };

export function bodyGate(opts: Partial<BodyGateOptions> = {}): ApiMiddleware {
  const options = { ...defaults, ...opts };
  return {
    name: 'bodyGate',
    before: (request) => {
      const { event } = request;
      if (options.emptyIsObject && (event.body === undefined || event.body === '')) {
        event.body = '{}';
        event.isBase64Encoded = false;
        (event.headers ??= {})['content-type'] = 'application/json';
      }
      prepareBody(event, options.maxBytes);
    },
  };
}
