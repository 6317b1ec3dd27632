/**
 * Matching a request path against the route table's paths, API Gateway style (the local runtime's router,
 * infra/local/server.ts; deployed, API Gateway matches).
 */

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
