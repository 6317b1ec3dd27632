import { describe, expect, it } from 'vitest';
import { exactRoute } from '../../../shared/http/middleware/exact-route.ts';
import { apiRequest } from './request.ts';

describe('exactRoute middleware', () => {
  it('lets the route itself and its empty trailing-slash child through', async () => {
    // Prepare
    const plain = apiRequest();
    const emptyChild = apiRequest();
    emptyChild.event.pathParameters = { proxy: '' };
    // Act / Assess
    await expect(Promise.resolve(exactRoute().before!(plain))).resolves.toBeUndefined();
    await expect(Promise.resolve(exactRoute().before!(emptyChild))).resolves.toBeUndefined();
  });

  it('answers route_not_found for a real child path of the greedy twin', () => {
    // Prepare
    const child = apiRequest();
    child.event.pathParameters = { proxy: 'x' };
    child.event.rawPath = '/payments/x';
    // Act / Assess
    expect(() => exactRoute().before!(child)).toThrow(
      expect.objectContaining({ code: 'route_not_found', status: 404 }),
    );
  });

  it('reads the variable named in its options', () => {
    const child = apiRequest();
    child.event.pathParameters = { rest: 'x' };
    expect(() => exactRoute({ variable: 'rest' }).before!(child)).toThrow(
      expect.objectContaining({ code: 'route_not_found' }),
    );
    expect(exactRoute().before!(child)).toBeUndefined();
  });
});
