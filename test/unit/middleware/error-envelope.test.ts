import { describe, expect, it } from 'vitest';
import { errorCodeOf } from '../../../shared/http/envelope.ts';
import { ApiError } from '../../../shared/http/errors.ts';
import { errorEnvelope } from '../../../shared/http/middleware/error-envelope.ts';
import { apiRequest } from './request.ts';

/** Runs the middleware's onError on a request that failed with `error`. */
function onError(error: unknown, options?: Parameters<typeof errorEnvelope>[0]) {
  const request = apiRequest({ requestId: 'req-9' });
  request.error = error as Error;
  errorEnvelope(options).onError!(request);
  return request.response!;
}

describe('errorEnvelope middleware', () => {
  it('answers an ApiError with its status, the error envelope and the request id', () => {
    // Act
    const response = onError(
      new ApiError('idempotency_request_in_progress', 'Still running.', [], { retryAfterSeconds: 1 }),
    );
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
    expect(JSON.parse(response.body)).toEqual({
      status: 'error',
      code: 'idempotency_request_in_progress',
      message: 'Still running.',
      errors: [],
      request_id: 'req-9',
    });
  });

  it("answers the JSON parser's 415 for malformed JSON as 400 invalid_json", () => {
    // Act
    const response = onError(Object.assign(new Error('Invalid or malformed JSON was provided'), { statusCode: 415 }));
    // Assess
    expect([response.statusCode, JSON.parse(response.body).code]).toEqual([400, 'invalid_json']);
  });

  it('answers an unknown error with a 500 that reveals nothing of it', () => {
    // Act
    const response = onError(new Error('secret table name in a stack trace'));
    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(JSON.parse(response.body).code).toBe('internal_error');
  });

  it('answers DynamoDB throttling with a retryable 503', () => {
    // Act
    const response = onError(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    // Assess
    expect([response.statusCode, response.headers['retry-after']]).toEqual([503, '1']);
  });

  it('answers 401 with WWW-Authenticate: Bearer', () => {
    // Act
    const response = onError(new ApiError('invalid_api_key', 'Invalid or missing API key.'));
    // Assess
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('records the error code the response was made from, for the request log', () => {
    // Act
    const response = onError(new ApiError('invoice_not_found', 'Invoice not found'));
    // Assess
    expect(errorCodeOf(response)).toBe('invoice_not_found');
    expect(response.statusCode).toBe(404);
  });

  it('classifies errors with the classify option when given', () => {
    // Act
    const response = onError(new Error('x'), { classify: () => new ApiError('route_not_found', 'No such route.') });
    // Assess
    expect(response.statusCode).toBe(404);
  });
});
