/**
 * Deployed, a route's trailing-slash twin (`/payments/history/`) is a greedy API Gateway route (API Gateway
 * refuses route paths ending in "/"; shared/routes.ts `apiGatewayRoutePath`): only its empty child is the
 * route, any real child path (`/payments/history/x`) is an unknown route (docs/api.md "Request handling").
 */
import { ApiError } from '../../errors.ts';
import { TRAILING_SLASH_VARIABLE } from '../../routes.ts';
import type { ApiMiddleware } from './types.ts';

export interface ExactRouteOptions {
  /** The greedy path variable of the trailing-slash twin. */
  variable: string;
}

const defaults: ExactRouteOptions = { variable: TRAILING_SLASH_VARIABLE };

export function exactRoute(opts: Partial<ExactRouteOptions> = {}): ApiMiddleware {
  const options = { ...defaults, ...opts };
  return {
    name: 'exactRoute',
    before: (request) => {
      if (!request.event.pathParameters?.[options.variable]) return;
      const method = request.event.requestContext?.http?.method ?? '';
      throw new ApiError('route_not_found', `No route for ${method} ${request.event.rawPath ?? ''}.`.trim());
    },
  };
}
