import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../infra/stack.ts';
import type { ApiFunctionName, RouteName } from '../../shared/routes.ts';

export const eventFixturePath = (routeName: string) => path.join(REPO_ROOT, 'test/events', `${routeName}.json`);

export const loadEvent = (routeName: string) =>
  JSON.parse(readFileSync(eventFixturePath(routeName), 'utf8')) as Record<string, any>;

/** One event fixture per API function: a route each function serves (sam local invoke, the Node 22 bundle tests). */
export const FUNCTION_FIXTURES: Record<ApiFunctionName, RouteName> = {
  invoices: 'add-invoice',
  payments: 'add-payment',
  history: 'payment-history',
};
