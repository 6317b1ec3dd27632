import { describe, expect, it } from 'vitest';
import { startOfDayIn } from '../../shared/domain/dates.ts';
import { apiGatewayRoutePath, routeKeys } from '../../shared/gateway-routes.ts';
import { matchRoutePath, PATH_PARAMETER_KINDS, pathParameterNames } from '../../shared/path-parameters.ts';
import { API_FUNCTIONS, ROUTES, withDeclaredParameters } from '../../shared/routes.ts';

describe('the route table', () => {
  it('has three API functions, and every route belongs to exactly one of them, once per method and path', () => {
    expect(API_FUNCTIONS.map((fn) => fn.name)).toEqual(['invoices', 'payments', 'history']);
    const keys = ROUTES.flatMap((route) =>
      [route.method, ...(route.extraMethods ?? [])].map((m) => `${m} ${route.path}`),
    );
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of ROUTES) expect(route.entry).toBe(`functions/${route.function}/handler.ts`);
  });

  it('groups by resource: every …/history and report in the history function, payments in payments, the rest in invoices', () => {
    const isReport = (path: string) => path.startsWith('/reports/') || path.endsWith('/statement');
    for (const route of ROUTES) {
      const expected =
        route.path.endsWith('/history') || isReport(route.path)
          ? 'history'
          : route.path.startsWith('/payments')
            ? 'payments'
            : 'invoices';
      expect(route.function, route.name).toBe(expected);
    }
  });
});

describe('path parameters in the route table', () => {
  it('gives every {parameter} of every route a declared kind, and declares none its path lacks', () => {
    for (const route of ROUTES) {
      const kinds = route.parameters ?? {};
      expect(Object.keys(kinds).sort(), route.name).toEqual(pathParameterNames(route.path).sort());
      for (const kind of Object.values(kinds)) expect(Object.keys(PATH_PARAMETER_KINDS), route.name).toContain(kind);
    }
  });

  it('refuses a route whose parameter has no kind, or with a kind for a parameter it does not have', () => {
    // Prepare
    const missing = { name: 'get-client', path: '/clients/{id}' } as const;
    const extra = { name: 'add-client', path: '/clients', parameters: { id: 'clientId' } } as const;
    const renamed = { name: 'get-client', path: '/clients/{id}', parameters: { client_id: 'clientId' } } as const;
    // Act / Assess
    expect(() => withDeclaredParameters(missing)).toThrow(
      /get-client: path parameters \[id\] but kinds declared for \[\]/,
    );
    expect(() => withDeclaredParameters(extra)).toThrow(/add-client/);
    expect(() => withDeclaredParameters(renamed)).toThrow(/get-client/);
    expect(withDeclaredParameters({ ...missing, parameters: { id: 'clientId' } }).path).toBe('/clients/{id}');
  });

  it('names a kind for each 404 an unknown invoice, payment or client gets, and no pattern admits spaces', () => {
    expect(
      Object.values(PATH_PARAMETER_KINDS)
        .map((k) => k.notFound)
        .sort(),
    ).toEqual([
      'card_not_found',
      'client_not_found',
      'credit_note_not_found',
      'hook_not_found',
      'invoice_not_found',
      'invoice_not_found',
      'payment_not_found',
      'recurring_not_found',
    ]);
    for (const { pattern } of Object.values(PATH_PARAMETER_KINDS))
      for (const value of [' 1', '1 ', '\t1', '', '+1', '1.0', '..', 'A'.repeat(65)])
        expect(pattern.test(value), value).toBe(false);
    for (const value of ['01', '0', '1e3'])
      expect(PATH_PARAMETER_KINDS.paymentId.pattern.test(value), value).toBe(false);
  });
});

describe('apiGatewayRoutePath', () => {
  it('names each path variable once per parent, as API Gateway requires (a 409 ConflictException otherwise)', () => {
    // Prepare
    const named = new Map<string, string>();
    // Act
    const paths = ROUTES.flatMap((route) => routeKeys(route).map((key) => apiGatewayRoutePath(key.path)));
    // Assess
    for (const path of paths) {
      const segments = path.split('/');
      segments.forEach((segment, index) => {
        const variable = /^\{([^}+]+)\}$/.exec(segment)?.[1];
        if (!variable) return;
        const parent = segments.slice(0, index).join('/');
        expect(named.get(parent) ?? variable, path).toBe(variable);
        named.set(parent, variable);
      });
    }
    expect(apiGatewayRoutePath('/payments/{id}/reversal')).toBe('/payments/{reference_code}/reversal');
    expect(apiGatewayRoutePath('/clients/{id}')).toBe('/clients/{id}');
  });
});

describe('matchRoutePath', () => {
  it('matches literal segments exactly and a parameter to one non-empty, decoded segment', () => {
    expect(matchRoutePath('/invoices/{reference_code}', '/invoices/A%20B')).toEqual({ reference_code: 'A B' });
    expect(matchRoutePath('/invoices/{reference_code}', '/invoices/')).toBeUndefined();
    expect(matchRoutePath('/invoices/{reference_code}', '/invoices/a/b')).toBeUndefined();
    expect(matchRoutePath('/invoices/history', '/invoices/history')).toEqual({});
    expect(matchRoutePath('/invoices/{reference_code}/', '/invoices/a/')).toEqual({ reference_code: 'a' });
    expect(matchRoutePath('/clients/{id}', '/clients/%E0%A4%A')).toEqual({ id: '%E0%A4%A' });
  });
});

describe('startOfDayIn', () => {
  it('is the local midnight of the date, as a UTC instant', () => {
    expect(startOfDayIn({ year: 2026, month: 11, day: 25 }, 'Africa/Lagos').toISOString()).toBe(
      '2026-11-24T23:00:00.000Z',
    );
    expect(startOfDayIn({ year: 2026, month: 11, day: 25 }, 'UTC').toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(startOfDayIn({ year: 2026, month: 3, day: 29 }, 'Europe/London').toISOString()).toBe(
      '2026-03-29T00:00:00.000Z',
    );
    expect(startOfDayIn({ year: 2026, month: 7, day: 1 }, 'America/New_York').toISOString()).toBe(
      '2026-07-01T04:00:00.000Z',
    );
  });
});
