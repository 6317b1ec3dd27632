import type { RouteName } from '../../shared/routes.ts';

/**
 * A valid body for each route with a path parameter that takes one, so that a test changing only the path asks what an
 * unknown value's request asks (test/integration/path-parameters.test.ts, test/robustness/fuzz-path-parameters.test.ts).
 */
export const VALID_BODIES: Partial<Record<RouteName, unknown>> = {
  'update-client': { first_name: 'Bola' },
  'reverse-payment': { reason: 'Keyed twice' },
  'email-invoice': { message: 'Thank you.' },
  'client-statement': { period: 'month' },
  'invoice-reminders': { paused: true },
  'create-credit-note': { reason: 'Returned', amount: '1.00' },
  'send-client-statement': { period: 'month' },
  'refund-client-credit': { amount: '1.00' },
  // Unsigned: an unknown hook is 404 before any signature is looked at.
  'paystack-event': { event: 'charge.success', data: {} },
};
