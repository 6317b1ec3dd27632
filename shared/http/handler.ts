/**
 * The middy stack every Lambda handler shares. Order (docs/api.md "Request handling"): authentication
 * first, then the body (size, content type, JSON/form parsing), then the route's own validation and work.
 * Every failure — parser errors, zod errors, DynamoDB errors, timeouts — leaves as the error envelope.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ServiceUnavailableError } from '../errors';
import type { RouteName } from '../routes';
import type { Account } from '../store/accounts';
import type { HttpResponse } from './envelope';
import { authenticate, authenticatedAccount } from './middleware/authenticate';
import { bodyGate } from './middleware/body-gate';
import { errorEnvelope } from './middleware/error-envelope';
import { requestLog } from './middleware/request-log';
import type { ApiContext, ApiInternal } from './middleware/types';

export interface ApiRequest {
  account: Account;
  /** Parsed JSON or form body (untrusted: validate it). */
  body: unknown;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  requestId: string;
}

export function createApiHandler(route: RouteName, run: (request: ApiRequest) => Promise<HttpResponse>) {
  return middy<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext, ApiInternal>({
    timeoutEarlyInMillis: 250,
    timeoutEarlyResponse: () => {
      throw new ServiceUnavailableError('The request timed out. Retry shortly.');
    },
  })
    .use(requestLog({ route }))
    .use(errorEnvelope())
    .use(httpHeaderNormalizer())
    .use(authenticate())
    .use(bodyGate())
    .use(httpJsonBodyParser({ disableContentTypeError: true }))
    .handler((event, context) =>
      run({
        account: authenticatedAccount(context),
        body: event.body,
        headers: event.headers ?? {},
        requestId: event.requestContext?.requestId ?? context.awsRequestId,
      }),
    );
}
