import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../../shared/domain/refusal.ts';
import { statusOf } from '../../../shared/http/errors.ts';
import { pathParameterCheck } from '../../../shared/http/middleware/path-parameters.ts';
import type { ApiMiddyRequest } from '../../../shared/http/middleware/types.ts';
import { PATH_PARAMETER_KINDS, type PathParameterKind } from '../../../shared/path-parameters.ts';
import { apiRequest } from './request.ts';

function withParameters(parameters: Record<string, string | undefined>): ApiMiddyRequest {
  const request = apiRequest();
  request.event.pathParameters = parameters;
  return request;
}

async function refusal(kind: PathParameterKind, value: string | undefined): Promise<Refusal | undefined> {
  try {
    await pathParameterCheck({ id: kind }).before!(withParameters({ id: value }));
    return undefined;
  } catch (error) {
    return error as Refusal;
  }
}

const KINDS = Object.keys(PATH_PARAMETER_KINDS) as PathParameterKind[];

describe('pathParameterCheck', () => {
  it('lets a value of its kind through, untouched', async () => {
    // Prepare
    const request = withParameters({ reference_code: 'Ab3dEf6hIj9lMn2pQr5t', id: '17' });
    // Act
    await pathParameterCheck({ reference_code: 'referenceCode', id: 'paymentId' }).before!(request);
    // Assess
    expect(request.event.pathParameters).toEqual({ reference_code: 'Ab3dEf6hIj9lMn2pQr5t', id: '17' });
  });

  it.each([
    ['referenceCode', 'invoice_not_found', 'Invoice not found'],
    ['paymentId', 'payment_not_found', 'Payment not found'],
    ['clientId', 'client_not_found', 'Client not found'],
  ] as const)('answers a %s that does not match with 404 %s, as an unknown one', async (kind, code, message) => {
    for (const value of [undefined, '', ' 1', '1 ', '%201', '..', 'x'.repeat(2100), '€'.repeat(700), '١']) {
      const error = await refusal(kind, value);
      expect(error, String(value)).toBeInstanceOf(Refusal);
      expect({ status: statusOf(error!), code: error!.code, message: error!.message, errors: error!.errors }).toEqual({
        status: 404,
        code,
        message,
        errors: [],
      });
    }
  });

  it('refuses exactly the values its kind does not match, whatever the string', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KINDS),
        fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.stringMatching(/^[0-9A-Za-z ]{0,70}$/)),
        async (kind, value) => {
          const error = await refusal(kind, value);
          expect(error === undefined).toBe(PATH_PARAMETER_KINDS[kind].pattern.test(value));
          if (error) expect(error.code).toBe(PATH_PARAMETER_KINDS[kind].notFound);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('checks nothing on a route without parameters', () => {
    expect(() => pathParameterCheck().before!(withParameters({ id: ' 1' }))).not.toThrow();
  });
});
