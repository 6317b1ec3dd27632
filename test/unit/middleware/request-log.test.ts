import { describe, expect, it } from 'vitest';
import { errorResponse, outcomeResponse } from '../../../shared/http/envelope.ts';
import { ApiError } from '../../../shared/http/errors.ts';
import { requestLog } from '../../../shared/http/middleware/request-log.ts';
import { success } from '../../../shared/outcome.ts';
import { apiRequest } from './request.ts';

/** A requestLog whose logger and metrics are recorded instead of written. */
function recorded() {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const finished: [string, string | undefined][] = [];
  const coldStarts: (string | undefined)[] = [];
  const middleware = requestLog({
    route: 'add-payment',
    logger: {
      addContext: () => undefined,
      info: (message: string, fields: Record<string, unknown>) => void lines.push({ level: 'info', message, fields }),
      error: (message: string, fields: Record<string, unknown>) => void lines.push({ level: 'error', message, fields }),
    } as never,
    finishInvocation: (route, code) => void finished.push([route, code]),
    captureColdStart: (name) => void coldStarts.push(name),
  });
  return { middleware, lines, finished, coldStarts };
}

describe('requestLog middleware', () => {
  it('logs one info line per successful request, with no error code, and flushes the metrics', async () => {
    // Prepare
    const { middleware, lines, finished, coldStarts } = recorded();
    const request = apiRequest({ requestId: 'req-1' });
    // Act
    await middleware.before!(request);
    request.context.account = { companyId: 7 } as never;
    request.response = outcomeResponse(success(201, { id: 1 }, 'Payment successful.'));
    await middleware.after!(request);
    // Assess
    expect(coldStarts).toEqual(['test']);
    expect(lines).toEqual([
      {
        level: 'info',
        message: 'request',
        fields: {
          route: 'add-payment',
          request_id: 'req-1',
          company_id: 7,
          status: 201,
          latency_ms: expect.any(Number),
        },
      },
    ]);
    expect(finished).toEqual([['add-payment', undefined]]);
  });

  it("takes a refusal's error code from the outcome it was made from (a stored 409, a 404)", async () => {
    // Prepare
    const { middleware, lines, finished } = recorded();
    const request = apiRequest();
    await middleware.before!(request);
    request.response = errorResponse(new ApiError('amount_exceeds_balance', 'Too much'), 'req-1');
    // Act
    await middleware.after!(request);
    // Assess
    expect(lines[0]?.fields).toMatchObject({ status: 409, error_code: 'amount_exceeds_balance' });
    expect(finished).toEqual([['add-payment', 'amount_exceeds_balance']]);
  });

  it('logs a 5xx at error level with the cause, after the error envelope answered', async () => {
    // Prepare
    const { middleware, lines, finished } = recorded();
    const request = apiRequest();
    await middleware.before!(request);
    request.error = new Error('boom');
    request.response = errorResponse(new ApiError('internal_error', 'An internal error occurred.'), 'req-1');
    // Act
    await middleware.onError!(request);
    // Assess
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'request failed',
        fields: expect.objectContaining({
          status: 500,
          error_code: 'internal_error',
          error: expect.objectContaining({ message: 'boom' }),
        }),
      },
    ]);
    expect(finished).toEqual([['add-payment', 'internal_error']]);
  });

  it('logs a 501 (a send on a stage without a sender) like a refusal: info, no stack', async () => {
    // Prepare
    const { middleware, lines, finished } = recorded();
    const request = apiRequest();
    await middleware.before!(request);
    request.error = new ApiError('mail_not_configured', 'This stage has no e-mail sender.');
    request.response = errorResponse(request.error as ApiError, 'req-1');
    // Act
    await middleware.onError!(request);
    // Assess
    expect(lines).toEqual([
      {
        level: 'info',
        message: 'request',
        fields: expect.objectContaining({ status: 501, error_code: 'mail_not_configured' }),
      },
    ]);
    expect(lines[0]!.fields).not.toHaveProperty('error');
    expect(finished).toEqual([['add-payment', 'mail_not_configured']]);
  });

  it('logs a thrown 4xx refusal without its stack', async () => {
    // Prepare
    const { middleware, lines } = recorded();
    const request = apiRequest();
    await middleware.before!(request);
    request.error = new ApiError('invoice_not_found', 'Invoice not found');
    request.response = errorResponse(request.error as ApiError, 'req-1');
    // Act
    await middleware.onError!(request);
    // Assess
    expect(lines.map((line) => [line.level, line.message])).toEqual([['info', 'request']]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('keeps a 503 and a 504 at error level with the cause', async () => {
    for (const code of ['service_unavailable', 'outcome_unknown'] as const) {
      // Prepare
      const { middleware, lines } = recorded();
      const request = apiRequest();
      await middleware.before!(request);
      request.error = new ApiError(code, 'Not now', [], { cause: new Error('deadline') });
      request.response = errorResponse(request.error as ApiError, 'req-1');
      // Act
      await middleware.onError!(request);
      // Assess
      expect(lines[0]).toMatchObject({ level: 'error', message: 'request failed', fields: { error_code: code } });
      expect(lines[0]!.fields.error).toMatchObject({ stack: expect.stringContaining('ApiError') });
    }
  });

  it('logs no company before authentication succeeded', async () => {
    // Prepare
    const { middleware, lines } = recorded();
    const request = apiRequest();
    await middleware.before!(request);
    request.response = errorResponse(new ApiError('invalid_api_key', 'Invalid or missing API key.'), 'req-1');
    // Act
    await middleware.onError!(request);
    // Assess
    expect(lines[0]?.fields.company_id).toBeUndefined();
    expect(lines[0]?.level).toBe('info');
  });
});
