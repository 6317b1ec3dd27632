/**
 * The OpenAPI examples of the recurring-invoice routes (docs/recurring-invoices.md), captured like the rest by
 * scripts/capture-examples.ts, whose request tools it is handed. `invalid_card_token` needs a saved card: it is
 * captured with the cards (scripts/capture-online-examples.ts, `recurringBody`).
 */
import type { CapturedExamples } from '../shared/openapi/document.ts';
import { wakeSeries } from '../shared/services/recurring-sweep.ts';
import { getAccount } from '../shared/store/accounts.ts';
import { loadSeries } from '../shared/store/recurring.ts';
import type { CaptureTools } from './capture-tools.ts';

/** A monthly retainer from 31 Jan 2031: its dates, 28 Feb, 31 Mar, 30 Apr …, never drift. */
export function recurringBody(email: string, extra: Record<string, unknown> = {}) {
  return {
    client: { first_name: 'Kemi', last_name: 'Adeyemi', email, phone: '+2348031234567' },
    fee_bearer: 'account',
    items: [{ item: 'Retainer', description: 'Monthly bookkeeping', unit_cost: '150,000.00', quantity: '1' }],
    schedule: { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 14, end: { after: 12 } },
    send: true,
    ...extra,
  };
}

export async function captureRecurringExamples(tools: CaptureTools): Promise<Pick<CapturedExamples, 'requests'>> {
  const { capture, commonErrors } = tools;
  const body = recurringBody('kemi@example.com');
  const created = await capture('create-recurring-invoice', 201, 'monthly', 'Monthly, 12 periods, e-mailed', { body });
  await capture('create-recurring-invoice', 201, 'weekly_until', 'Weekly until a date, not e-mailed', {
    body: recurringBody('kemi@example.com', {
      schedule: { every: 2, unit: 'week', start: '03/02/2031', due_in_days: 7, end: { on: '12/31/2031' } },
      send: false,
    }),
  });
  await capture('create-recurring-invoice', 403, 'tokenization_not_enabled', 'tokenize without tokenization', {
    body: { ...body, tokenize: 'true' },
  });
  await capture('create-recurring-invoice', 404, 'client_not_found', 'Unknown client_id', {
    body: { ...body, client: undefined, client_id: '999999' },
  });
  await commonErrors(
    'create-recurring-invoice',
    body,
    { ...body, schedule: { ...body.schedule, every: 0, start: '02/30/2031' } },
    'TransactWriteItemsCommand',
  );
  await createIdempotency(tools, body);
  await captureReads(tools, created.data.id);
  await captureChanges(tools, created.data.id);
  return { requests: { 'create-recurring-invoice': { json: body } } };
}

async function createIdempotency(tools: CaptureTools, body: Record<string, unknown>) {
  const { capture, send, withFault, inFlight } = tools;
  const keyed = { body, headers: { 'idempotency-key': 'retainer-kemi' } };
  await capture('create-recurring-invoice', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    body,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture('create-recurring-invoice', 409, 'idempotency_request_in_progress', 'Same key still running', keyed),
  );
  await send('create-recurring-invoice', keyed);
  await capture('create-recurring-invoice', 422, 'idempotency_key_reused', 'Same Idempotency-Key, another body', {
    ...keyed,
    body: { ...body, send: false },
  });
}

async function captureReads(tools: CaptureTools, id: string) {
  const { capture, faultErrors } = tools;
  const path = `/recurring-invoices/${id}`;
  await capture('get-recurring-invoice', 200, 'active', 'An active series', { path });
  await capture('get-recurring-invoice', 404, 'recurring_not_found', 'Unknown id', {
    path: '/recurring-invoices/rec_01JZ0000000000000000000000',
  });
  await faultErrors('get-recurring-invoice', { path }, 'BatchGetItemCommand');
  const page = await capture('list-recurring-invoices', 200, 'first_page', 'Newest two series', {
    path: '/recurring-invoices?limit=2',
  });
  await capture('list-recurring-invoices', 400, 'validation_failed', 'limit out of range', {
    path: '/recurring-invoices?limit=501',
  });
  await capture('list-recurring-invoices', 400, 'invalid_cursor', 'A forged cursor', {
    path: `/recurring-invoices?cursor=${encodeURIComponent(`${String(page.data.next_cursor).slice(0, -4)}AAAA`)}`,
  });
  await faultErrors('list-recurring-invoices', { path: '/recurring-invoices' }, 'QueryCommand');
}

const DONE = { pause: 'The series paused', resume: 'The series resumed', cancel: 'The series cancelled' };

async function captureChanges(tools: CaptureTools, id: string) {
  const { capture, send, faultErrors, withFault, inFlight } = tools;
  for (const action of ['pause', 'resume', 'cancel'] as const) {
    const route = `${action}-recurring-invoice` as const;
    const path = `/recurring-invoices/${id}/${action}`;
    await faultErrors(route, { path }, 'TransactWriteItemsCommand');
    await capture(route, 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
      path,
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    if (action === 'resume') await send('pause-recurring-invoice', { path: `/recurring-invoices/${id}/pause` });
    await withFault('TransactWriteItemsCommand', inFlight, () =>
      capture(route, 409, 'idempotency_request_in_progress', 'Same key still running', {
        path,
        headers: { 'idempotency-key': `${action}-${id}` },
      }),
    );
    await capture(route, 200, action, DONE[action], {
      path,
      headers: { 'idempotency-key': `${action}-${id}` },
    });
    await capture(route, 422, 'idempotency_key_reused', 'Same Idempotency-Key, another series', {
      path: `/recurring-invoices/rec_01JZ0000000000000000000000/${action}`,
      headers: { 'idempotency-key': `${action}-${id}` },
    });
    await capture(route, 404, 'recurring_not_found', 'Unknown id', {
      path: `/recurring-invoices/rec_01JZ0000000000000000000000/${action}`,
    });
  }
  for (const action of ['pause', 'resume'] as const)
    await capture(`${action}-recurring-invoice`, 409, 'recurring_status_conflict', 'A cancelled series', {
      path: `/recurring-invoices/${id}/${action}`,
    });
  await capture('cancel-recurring-invoice', 409, 'recurring_status_conflict', 'A completed series', {
    path: `/recurring-invoices/${await completedSeries(tools)}/cancel`,
  });
}

/** A series of one period, issued by the sweep's handler at a chosen instant: `completed`. */
async function completedSeries(tools: CaptureTools): Promise<string> {
  const body = recurringBody('kemi@example.com', {
    schedule: { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 14, end: { after: 1 } },
  });
  const id = String((await tools.send('create-recurring-invoice', { body })).body.data.id);
  const series = (await loadSeries([id])).get(id)!;
  const hit = { kind: 'recurring' as const, id, companyId: series.companyId, indexKey: '' };
  await wakeSeries([hit], { now: new Date('2031-02-01T12:00:00Z'), writtenAt: () => new Date(), account: getAccount });
  return id;
}
