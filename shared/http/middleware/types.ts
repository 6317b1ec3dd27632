/** The request every middleware of the API stack sees (middy's own types, narrowed to API Gateway HTTP API). */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Account } from '../../store/accounts.ts';
import type { HttpResponse } from '../envelope.ts';

/** The Lambda context; `account` is set by the `authenticate` middleware. */
export type ApiContext = Context & { account?: Account };

/** Values the middlewares share within one invocation. */
export type ApiInternal = { startedAt?: number };

export type ApiMiddyRequest = middy.Request<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext, ApiInternal>;

export type ApiMiddleware = middy.MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext, ApiInternal>;

/** API Gateway's request id (it names the request in responses and logs), else Lambda's. */
export const requestIdOf = (request: ApiMiddyRequest): string =>
  request.event.requestContext?.requestId ?? request.context.awsRequestId ?? 'unknown';
