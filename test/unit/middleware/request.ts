/** A middy request as the API stack sees it, for testing one middleware alone. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ApiMiddyRequest } from '../../../shared/http/middleware/types.ts';
import { lambdaContext } from '../../support/api.ts';

export function apiRequest(
  overrides: { headers?: Record<string, string>; body?: string; requestId?: string } = {},
): ApiMiddyRequest {
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: 'POST /payments',
    rawPath: '/payments',
    rawQueryString: '',
    headers: overrides.headers ?? {},
    requestContext: { requestId: overrides.requestId ?? 'req-1' } as APIGatewayProxyEventV2['requestContext'],
    isBase64Encoded: false,
    ...(overrides.body === undefined ? {} : { body: overrides.body }),
  };
  return { event, context: lambdaContext(), response: null, error: null, internal: {} };
}
