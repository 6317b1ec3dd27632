/**
 * One log line per request (route, request_id, company_id, status, latency_ms, error_code; never a key
 * or a body), the cold-start metric, and the error metric and flush at the end (shared/observability.ts).
 * Use it first, so that its `after` and `onError` run last, when the response is final.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { captureColdStart, finishInvocation, logger } from '../../observability.ts';
import { errorCodeOf } from '../envelope.ts';
import { type ApiMiddleware, type ApiMiddyRequest, requestIdOf } from './types.ts';

export interface RequestLogOptions {
  route: string;
  logger: Pick<Logger, 'addContext' | 'info' | 'error'>;
  captureColdStart: (functionName: string | undefined) => void;
  finishInvocation: (route: string, errorCode: string | undefined) => void;
}

const defaults: Omit<RequestLogOptions, 'route'> = { logger, captureColdStart, finishInvocation };

const describe = (cause: unknown) =>
  cause instanceof Error ? { name: cause.name, message: cause.message, stack: cause.stack } : String(cause);

/**
 * A refusal the service meant (4xx, and 501 for what it does not offer) is a request line like a success: no stack,
 * not at ERROR, so that ERROR lines are the failures someone must look at (500, 503, 504).
 */
const isExpected = (status: number) => status < 500 || status === 501;

export function requestLog(opts: Partial<RequestLogOptions> & { route: string }): ApiMiddleware {
  const options = { ...defaults, ...opts };

  const log = (request: ApiMiddyRequest) => {
    // After the error envelope every invocation has a response; without one, Lambda reports a failure (500).
    const status = request.response?.statusCode ?? 500;
    const errorCode = errorCodeOf(request.response ?? undefined);
    const fields = {
      route: options.route,
      request_id: requestIdOf(request),
      company_id: request.context.account?.companyId,
      status,
      latency_ms: Math.round(performance.now() - (request.internal.startedAt ?? performance.now())),
      ...(errorCode ? { error_code: errorCode } : {}),
    };
    if (isExpected(status)) options.logger.info('request', fields);
    else options.logger.error('request failed', { ...fields, error: describe(request.error) });
    options.finishInvocation(options.route, errorCode);
  };

  return {
    name: 'requestLog',
    before: (request) => {
      request.internal.startedAt = performance.now();
      options.logger.addContext(request.context);
      options.captureColdStart(request.context.functionName);
    },
    after: log,
    onError: log,
  };
}
