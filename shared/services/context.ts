import type { Account } from '../store/accounts';
import type { ApiError } from '../errors';
import { errorBody } from '../http/envelope';
import type { StoredResponse } from '../store/idempotency';

/** What a service needs to know about the request it serves. */
export interface RequestContext {
  account: Account;
  requestId: string;
  /** Idempotency-Key header value, already validated. */
  idempotencyKey: string | undefined;
}

export const storedError = (error: ApiError, requestId: string): StoredResponse => ({
  statusCode: error.status,
  body: JSON.stringify(errorBody(error, requestId)),
});

export const storedSuccess = (statusCode: number, message: string, data: unknown): StoredResponse => ({
  statusCode,
  body: JSON.stringify({ status: 'success', message, data }),
});
