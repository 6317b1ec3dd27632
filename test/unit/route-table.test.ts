import { describe, expect, it } from 'vitest';
import { startOfDayIn } from '../../shared/domain/dates.ts';
import { API_FUNCTIONS, apiGatewayRoutePath, matchRoutePath, ROUTES, routeKeys } from '../../shared/routes.ts';

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
