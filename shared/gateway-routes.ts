/**
 * Route paths as API Gateway is given them (the CDK stack, infra/stack.ts): the gateway refuses paths ending in "/"
 * and two differently named variables under one parent, so the route table's paths (shared/routes.ts) are declared
 * there in this form; the function's router still matches each route's own path.
 */
import { type HttpMethod, methodsOf, ROUTES, type RouteDefinition } from './routes.ts';

/** Name of the greedy path variable that carries the trailing-slash twin of a route on API Gateway. */
export const TRAILING_SLASH_VARIABLE = 'proxy';

/**
 * The API Gateway route path for a route key. API Gateway refuses route paths that end in "/", so the
 * trailing-slash twin is declared as a greedy child route (`/payments/history/{proxy+}`); the function's router
 * answers 404 for a real child path such as `/payments/history/x`.
 */
export function apiGatewayRoutePath(path: string): string {
  const named = withGatewayVariableNames(path);
  return named.endsWith('/') ? `${named}{${TRAILING_SLASH_VARIABLE}+}` : named;
}

const PATH_VARIABLE = /^\{([^}+]+)\}$/;

/**
 * API Gateway refuses two variables with different names under one parent (`/payments/{reference_code}` and
 * `/payments/{id}/reversal`: 409 "conflicting variable on the same hierarchical level"). The gateway's path therefore
 * names each variable as the first route declaring a variable under that parent does; the function's router still
 * matches the route's own path and gives the handler the route's own name (shared/http/api-function.ts).
 */
function withGatewayVariableNames(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      if (!PATH_VARIABLE.test(segment)) return segment;
      const parent = segments.slice(0, index).join('/');
      return `{${firstVariableUnder(parent) ?? segment.slice(1, -1)}}`;
    })
    .join('/');
}

function firstVariableUnder(parent: string): string | undefined {
  for (const route of ROUTES) {
    const segments = route.path.split('/');
    const depth = parent.split('/').length;
    if (segments.length > depth && segments.slice(0, depth).join('/') === parent) {
      const variable = PATH_VARIABLE.exec(segments[depth] ?? '');
      if (variable) return variable[1];
    }
  }
  return undefined;
}

/** One method + path pair a route answers (API Gateway route key `"<method> <path>"`). */
export interface RouteKey {
  method: HttpMethod;
  path: string;
}

/**
 * Every method + path a route answers: its method and extra methods, each on its path with and without a
 * trailing slash (docs/api.md: `/payments/history/` is `/payments/history`). API Gateway HTTP APIs match route
 * paths exactly, so the stack declares each of these as its own route (see `apiGatewayRoutePath`); the
 * local runtime serves the same list.
 */
export function routeKeys(route: Pick<RouteDefinition, 'method' | 'extraMethods' | 'path'>): RouteKey[] {
  return methodsOf(route).flatMap((method) => [
    { method, path: route.path },
    { method, path: `${route.path}/` },
  ]);
}
