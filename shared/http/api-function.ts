/**
 * One API function: its routes (shared/routes.ts) behind @middy/http-router, each route with the full middy
 * stack of `createApiHandler`. API Gateway only invokes a function for its own route keys; the router still
 * answers a path it does not serve — a real child of a trailing-slash twin such as `/payments/history/x` —
 * with the 404 envelope (docs/api.md "Request handling").
 */
import httpRouterHandler from '@middy/http-router';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { renderNotFoundPage } from '../render/invoice-page.ts';
import {
  type ApiFunctionName,
  apiFunctionNamed,
  isProviderRoute,
  isPublicRoute,
  methodsOf,
  type ProviderRouteName,
  type PublicRouteName,
  type RouteName,
} from '../routes.ts';
import { errorResponse, type HttpResponse } from './envelope.ts';
import { ApiError } from './errors.ts';
import {
  createApiHandler,
  createProviderHandler,
  createPublicHandler,
  type ProviderRouteHandler,
  type PublicRouteHandler,
  type RouteHandler,
} from './handler.ts';
import { pageResponse } from './page-responses.ts';

class UnservedRoute extends Error {}

/** A function's route handlers: a public or provider route's handler is given no account (shared/routes.ts `access`). */
export type RouteHandlers = {
  [R in RouteName]?: R extends PublicRouteName
    ? PublicRouteHandler
    : R extends ProviderRouteName
      ? ProviderRouteHandler
      : RouteHandler;
};

export function createApiFunction(name: ApiFunctionName, handlers: RouteHandlers) {
  const definition = apiFunctionNamed(name);
  const routes = definition.routes.flatMap((route) => {
    const run = handlers[route.name];
    if (!run) throw new Error(`The ${name} function has no handler for its route ${route.name}`);
    const handler = isPublicRoute(route)
      ? createPublicHandler(route.name, run as PublicRouteHandler)
      : isProviderRoute(route)
        ? createProviderHandler(route.name, run as ProviderRouteHandler)
        : createApiHandler(route.name, run as RouteHandler);
    return methodsOf(route).map((method) => ({ method, path: route.path, handler }));
  });
  const publicPrefixes = definition.routes.filter(isPublicRoute).map((route) => `/${route.path.split('/')[1]}/`);
  const router = httpRouterHandler<APIGatewayProxyEventV2, HttpResponse>({
    routes,
    notFoundResponse: () => {
      throw new UnservedRoute();
    },
  });
  return async (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> => {
    try {
      return await router(event, context);
    } catch (error) {
      if (!(error instanceof UnservedRoute)) throw error;
      const { method, path } = event.requestContext?.http ?? { method: '', path: event.rawPath };
      const requestId = event.requestContext?.requestId ?? context.awsRequestId;
      // Under a page's path (`/i/<token>/x`) a person is reading: the 404 page, not the JSON envelope.
      if (publicPrefixes.some((prefix) => path.startsWith(prefix))) return pageResponse(404, renderNotFoundPage());
      return errorResponse(new ApiError('route_not_found', `No route for ${method} ${path}.`), requestId);
    }
  };
}
