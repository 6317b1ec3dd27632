/** The requests the bench sends (add invoice, add payment, history) and `call`, which sends one and checks its status. */
import { addDays, type CalendarDate, formatDayFirst, todayIn } from '../shared/domain/dates.ts';
import { runTag } from './config.ts';
import { httpRequest } from './http.ts';

const mmddyyyy = (d: CalendarDate) => `${String(d.month).padStart(2, '0')}/${String(d.day).padStart(2, '0')}/${d.year}`;
export const TODAY = todayIn('Africa/Lagos');
// The history period: a fixed 91-day window in the past, so that the same account has payments both before and after it.
export const WINDOW_START = addDays(TODAY, -200);
export const WINDOW_END = addDays(TODAY, -110);
const HISTORY_BODY = {
  period: 'custom',
  start: formatDayFirst(WINDOW_START),
  end: formatDayFirst(WINDOW_END),
  limit: 100,
};
let sequence = 0;
const unique = () => `${runTag}-${++sequence}`;

export interface RequestSpec {
  /** Default POST. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body: unknown;
  headers: Record<string, string>;
  /** Given the body of the endpoint's expected answer (a row that supplies another's pool keeps it); never the floor's. */
  onAnswer?: (body: string) => void;
}

/** A request of the `i`th of a block, sent by load-generator worker `worker`. */
export type MakeRequest = (i: number, worker: number) => RequestSpec;

const auth = (key: string, idempotent: boolean): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  ...(idempotent ? { 'idempotency-key': `bench-${unique()}` } : {}),
});

export const newClientInvoice = (key: string): RequestSpec => {
  const id = unique();
  return {
    path: '/invoices',
    headers: auth(key, true),
    body: {
      client: {
        first_name: 'Ada',
        last_name: 'Obi',
        email: `ada.${id}@example.com`,
        phone: '+2348012345678',
        company_name: 'Obi Stores',
      },
      due_date: '12/31/2030',
      fee_bearer: 'client',
      items: [
        { item: 'Website design', description: 'Landing page', unit_cost: '150,000.00', quantity: '1' },
        { item: 'Hosting', description: '12 months', unit_cost: '2,500.00', quantity: 12 },
      ],
    },
  };
};

export const clientIdInvoice = (key: string, clientId: number, total = '150,000.00'): RequestSpec => ({
  path: '/invoices',
  headers: auth(key, true),
  body: {
    client_id: clientId,
    due_date: '12/31/2030',
    fee_bearer: 'account',
    items: [
      { item: 'Website design', description: 'Landing page', unit_cost: total, quantity: '1' },
      { item: 'Hosting', description: '12 months', unit_cost: '2,500.00', quantity: 12 },
    ],
  },
});

/**
 * An invoice of 100 lines on an account with exclusive VAT (docs/tax.md): standard, zero-rated and exempt lines, every
 * fifth discounted — the split of every line and category is computed and stored.
 */
export const taxedInvoice = (key: string, clientId: number): RequestSpec => ({
  path: '/invoices',
  headers: auth(key, true),
  body: {
    client_id: clientId,
    due_date: '12/31/2030',
    fee_bearer: 'account',
    items: Array.from({ length: 100 }, (_, i) => ({
      item: `Line ${i + 1}`,
      description: 'Taxed supply',
      unit_cost: `${1000 + i * 37}.45`,
      quantity: String(1 + (i % 7)),
      tax: i % 10 === 3 ? 'zero' : i % 10 === 7 ? 'exempt' : 'standard',
      ...(i % 5 === 0 ? { discount: '100.00' } : {}),
    })),
  },
});

export const payment = (key: string, referenceCode: string, date: CalendarDate, amount = '1.00'): RequestSpec => ({
  path: '/payments',
  headers: auth(key, true),
  body: { reference_code: referenceCode, date: mmddyyyy(date), amount, channel: 'BankTransfer' },
});

/** `POST /payments/{id}/reversal` (docs/api.md "Reversing a payment"), with an Idempotency-Key like the other POST writes. */
export const reversal = (key: string, paymentId: number): RequestSpec => ({
  path: `/payments/${paymentId}/reversal`,
  headers: auth(key, true),
  body: { reason: 'Recorded twice by mistake' },
});

/** Days of the tax report row's period: a year, both ends counted (the most a custom period may span). */
export const TAX_YEAR_DAYS = 366;

/** docs/tax.md "Tax report": the last 366 days (a custom period, so the row reads as much on 1 January as in December). */
export const taxReport = (key: string): RequestSpec => ({
  path: '/reports/tax',
  headers: auth(key, false),
  body: { period: 'custom', start: formatDayFirst(addDays(TODAY, -(TAX_YEAR_DAYS - 1))), end: formatDayFirst(TODAY) },
});

export const history = (key: string): RequestSpec => ({
  path: '/payments/history',
  headers: auth(key, false),
  body: HISTORY_BODY,
});

export async function call(port: number, spec: RequestSpec, expected: number) {
  const result = await httpRequest(port, spec.method ?? 'POST', spec.path, spec.body, spec.headers);
  if (result.status !== expected)
    throw new Error(`${spec.path}: expected ${expected}, got ${result.status}: ${result.body.slice(0, 400)}`);
  // Only a JSON answer has `json`: a page (HTML), a PDF or a CSV answer (Accept: text/csv) leaves it empty.
  const json = result.contentType.includes('json') ? (JSON.parse(result.body) as { data: any }) : { data: undefined };
  return { ...result, json };
}

export const historyPage = (key: string, limit: number): RequestSpec => ({
  path: '/payments/history',
  headers: auth(key, false),
  body: { ...HISTORY_BODY, limit },
});

/** An invoice of `count` long items (names of 400 and descriptions of 500 characters): a body just under 64 KiB. */
export const longItemsInvoice = (key: string, clientId: number, count: number): RequestSpec => ({
  path: '/invoices',
  headers: auth(key, true),
  body: {
    client_id: clientId,
    due_date: '12/31/2030',
    fee_bearer: 'account',
    items: Array.from({ length: count }, (_, k) => ({
      item: `Item ${k} `.padEnd(400, 'abcdefghij'),
      description: `Description of item ${k} `.padEnd(500, 'klmnopqrst'),
      unit_cost: '1,000.00',
      quantity: '1',
    })),
  },
});

/** Queue an e-mail of an invoice (`POST /invoices/{ref}/send`), keyed: the enqueue only — the mailer works later. */
export const sendInvoice = (key: string, referenceCode: string): RequestSpec => ({
  path: `/invoices/${referenceCode}/send`,
  headers: auth(key, true),
  body: { message: 'Thank you for your business.' },
});

/** Queue a client's statement by e-mail (`POST /clients/{id}/statement/send`), keyed: the mailer draws it later. */
export const sendStatement = (key: string, clientId: number): RequestSpec => ({
  path: `/clients/${clientId}/statement/send`,
  headers: auth(key, true),
  body: { period: 'today' },
});

/** Pause (odd requests) or resume an invoice's reminders: `POST /invoices/{ref}/reminders` with an Idempotency-Key. */
export const setReminders = (key: string, referenceCode: string, paused: boolean): RequestSpec => ({
  path: `/invoices/${referenceCode}/reminders`,
  headers: auth(key, true),
  body: { paused },
});

/** A credit note of 1.00 on the invoice (docs/tax.md "Credit notes"): by amount, so every request credits the same. */
export const creditNote = (key: string, referenceCode: string): RequestSpec => ({
  path: `/invoices/${referenceCode}/credit-notes`,
  headers: auth(key, true),
  body: { reason: 'Bench', amount: '1.00' },
});

/** A read by path (`GET /invoices/{ref}`, `GET /payments/{ref}`, `GET /clients…`): no body. */
export const read = (key: string, path: string): RequestSpec => ({
  method: 'GET',
  path,
  headers: auth(key, false),
  body: undefined,
});

/** A delete by path (`DELETE /invoices/{ref}`, `DELETE /clients/{id}`): no body, no Idempotency-Key (docs/api.md). */
export const deletion = (key: string, path: string): RequestSpec => ({
  method: 'DELETE',
  path,
  headers: auth(key, false),
  body: undefined,
});

/** A page people open without a key (`GET /i/{token}`): no Authorization header. */
export const publicPage = (path: string): RequestSpec => ({ method: 'GET', path, headers: {}, body: undefined });

/** Today's invoices of the account, `limit` of them (the history account's were all created today, while seeding). */
export const invoiceHistory = (key: string, limit = 100): RequestSpec => ({
  path: '/invoices/history',
  headers: auth(key, false),
  body: { period: 'today', limit },
});

export const newClient = (key: string): RequestSpec => ({
  path: '/clients',
  headers: auth(key, true),
  body: { first_name: 'Ngozi', last_name: 'Adeyemi', email: `ngozi.${unique()}@example.com`, phone: '+2348051234567' },
});

export const clientUpdate = (key: string, clientId: number): RequestSpec => ({
  method: 'PUT',
  path: `/clients/${clientId}`,
  headers: auth(key, false),
  body: { address: '12 Marina, Lagos', phone: '+2348098765432' },
});
