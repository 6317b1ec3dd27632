/**
 * How the local API server (server.ts) runs a route's handler as Lambda would: the handler module imported once per
 * route for the life of the server (a warm container; retried after a failed import), and each invocation given a
 * Lambda context and raced against the function's timeout.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { RouteDefinition } from '../../shared/routes.ts';
import { createLambdaContext } from './event.ts';

/** A payload 2.0 Lambda handler, as exported by `functions/<name>/handler.ts`. */
export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyResultV2> | APIGatewayProxyResultV2;

/** Imports a handler module by its route-table entry, relative to `rootDir`. */
export async function importHandler(route: RouteDefinition, rootDir = process.cwd()): Promise<LambdaHandler> {
  const url = pathToFileURL(resolve(rootDir, route.entry)).href;
  let module: { handler?: unknown };
  try {
    module = (await import(url)) as { handler?: unknown };
  } catch (error) {
    const missing =
      (error as { code?: string; url?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
      (error as { url?: string }).url === url;
    if (missing) throw new Error(`Handler module ${route.entry} does not exist (yet).`);
    throw error;
  }
  if (typeof module.handler !== 'function') throw new Error(`${route.entry} does not export a handler function`);
  return module.handler as LambdaHandler;
}

export class HandlerInvoker {
  private readonly handlers = new Map<string, Promise<LambdaHandler>>();

  constructor(
    private readonly loadHandler: (route: RouteDefinition) => Promise<LambdaHandler>,
    readonly timeoutMs: number,
  ) {}

  /** The handler's result, or `'timeout'` when it did not answer within the function's timeout. */
  async invoke(route: RouteDefinition, event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2 | 'timeout'> {
    const handler = await this.handlerFor(route);
    const context = createLambdaContext({ functionName: route.function, timeoutMs: this.timeoutMs });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), this.timeoutMs)));
    try {
      return await Promise.race([Promise.resolve().then(() => handler(event, context)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private handlerFor(route: RouteDefinition): Promise<LambdaHandler> {
    let loading = this.handlers.get(route.name);
    if (!loading) {
      loading = this.loadHandler(route);
      this.handlers.set(route.name, loading);
      loading.catch(() => this.handlers.delete(route.name));
    }
    return loading;
  }
}
