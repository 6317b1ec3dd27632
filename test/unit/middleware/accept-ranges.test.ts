import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptWithoutParameters, withoutMediaTypeParameters } from '../../../shared/http/middleware/accept-ranges.ts';
import { apiRequest } from './request.ts';

describe('withoutMediaTypeParameters', () => {
  it.each([
    ['text/csv; charset=utf-8', 'text/csv'],
    ['Text/CSV;Charset="utf-8"', 'Text/CSV'],
    ['text/csv; header=present; q=0.9, application/json; q=0.5', 'text/csv;q=0.9, application/json;q=0.5'],
    ['text/csv;q=0.5;ext=1, */*;q=0.1', 'text/csv;q=0.5;ext=1, */*;q=0.1'],
    ['text/csv; note="a, b; c", application/json', 'text/csv, application/json'],
    ['text/csv; note="say \\"q=1, x\\""; Q=0.2', 'text/csv;Q=0.2'],
    ['application/json', 'application/json'],
  ])('%s → %s', (accept, expected) => {
    expect(withoutMediaTypeParameters(accept)).toBe(expected);
  });

  it('keeps every range and its weight, for any list of ranges with any parameters (property)', () => {
    const token = fc.stringMatching(/^[a-z0-9-]{1,8}$/);
    const range = fc.record({
      type: fc.tuple(token, token).map(([type, subtype]) => `${type}/${subtype}`),
      parameters: fc.array(
        fc.tuple(
          token.filter((key) => key.toLowerCase() !== 'q'),
          fc.oneof(
            token,
            token.map((value) => `"${value}, ;${value}"`),
          ),
        ),
      ),
      q: fc.option(fc.constantFrom('0', '0.5', '1'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 5 }), (ranges) => {
        const accept = ranges
          .map(({ type, parameters, q }) =>
            [type, ...parameters.map(([key, value]) => `${key}=${value}`), ...(q ? [`q=${q}`] : [])].join('; '),
          )
          .join(', ');
        const expected = ranges.map(({ type, q }) => (q ? `${type};q=${q}` : type)).join(', ');
        expect(withoutMediaTypeParameters(accept)).toBe(expected);
      }),
    );
  });
});

describe('acceptWithoutParameters middleware', () => {
  it('rewrites the Accept header the negotiation reads, and leaves a request without one alone', async () => {
    const request = apiRequest({ headers: { accept: 'text/csv; charset=utf-8' } });
    await acceptWithoutParameters().before!(request);
    expect(request.event.headers.accept).toBe('text/csv');
    const without = apiRequest();
    await acceptWithoutParameters().before!(without);
    expect(without.event.headers).toEqual({});
  });
});
