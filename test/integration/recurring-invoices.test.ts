/**
 * docs/recurring-invoices.md: the series' routes through the real handler, and the sweep's handler of series
 * (services/recurring-sweep.ts) at chosen instants — each period's invoice exactly once, dated from the anchor, the
 * latest of missed periods alone sent, racing sweeps included. The sweep is called on this file's series only
 * (`wakeSeries`), so that instants years ahead touch no other test's items.
 */
import { describe, expect, it } from 'vitest';
import { wallClockInstant } from '../../shared/domain/dates.ts';
import { wakeSeries } from '../../shared/services/recurring-sweep.ts';
import { getAccount } from '../../shared/store/accounts.ts';
import { listMailJobs } from '../../shared/store/mail.ts';
import { issuedPeriods } from '../../shared/store/recurring.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, invoiceBody, newAccount } from '../support/api.ts';
import { useEnvironment, WITH_MAIL_SENDER } from '../support/environment.ts';

useEnvironment(WITH_MAIL_SENDER);

const LAGOS = 'Africa/Lagos';
/** 00:00 UTC of a date, as the API shows dates (`due_date`, `next_issue_date`). */
const shown = (iso: string) => String(Date.parse(`${iso}T00:00:00Z`) / 1000);
/** An instant: `HH:MM` on a date in Lagos. */
const lagos = (iso: string, hour: number, minute = 0) => {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return wallClockInstant({ year, month, day }, hour * 60 + minute, LAGOS);
};

function seriesBody(schedule: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  const { due_date: _none, ...invoice } = invoiceBody();
  return { ...invoice, schedule: { every: 1, unit: 'month', due_in_days: 14, ...schedule }, send: true, ...overrides };
}

async function createSeries(key: string, body: Record<string, unknown>) {
  const created = await call('create-recurring-invoice', { key, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data;
}

/** The sweep's handler on one series at `now`. */
async function sweepAt(series: { id: string }, companyId: number, now: Date) {
  const hit = { kind: 'recurring' as const, id: series.id, companyId, indexKey: '' };
  return wakeSeries([hit], { now, writtenAt: () => new Date(), account: getAccount });
}

const getSeries = async (key: string, id: string) =>
  (await call('get-recurring-invoice', { key, pathParameters: { id } })).body.data;

async function invoicesOf(key: string, seriesId: string) {
  const periods = await issuedPeriods(seriesId);
  return Promise.all(
    periods.map(
      async (p) => (await call('get-invoice', { key, pathParameters: { reference_code: p.referenceCode } })).body.data,
    ),
  );
}

describe('recurring invoices: the routes', () => {
  it('creates a series (201), reads and lists it; another account gets 404', async () => {
    // Prepare
    const { key } = await newAccount();
    const other = await newAccount();
    // Act
    const series = await createSeries(key, seriesBody({ start: '01/31/2031', end: { after: 12 } }));
    const read = await call('get-recurring-invoice', { key, pathParameters: { id: series.id } });
    const listed = await call('list-recurring-invoices', { key });
    const foreign = await call('get-recurring-invoice', { key: other.key, pathParameters: { id: series.id } });
    const foreignChanges = await Promise.all(
      (['pause', 'resume', 'cancel'] as const).map((action) =>
        call(`${action}-recurring-invoice`, { key: other.key, pathParameters: { id: series.id } }),
      ),
    );
    const foreignList = await call('list-recurring-invoices', { key: other.key });
    // Assess
    expect(series).toMatchObject({
      id: expect.stringMatching(/^rec_[0-9A-Z]{26}$/),
      status: 'active',
      next_issue_date: shown('2031-01-31'),
      issued_count: 0,
      send: true,
      schedule: { every: 1, unit: 'month', start: shown('2031-01-31'), due_in_days: 14, end: { after: 12 } },
      last_error: null,
    });
    expect(read.body.data).toEqual(series);
    expect(listed.body.data.recurring_invoices).toEqual([series]);
    expect(listed.body.data.next_cursor).toBeNull();
    expect([foreign.status, foreign.body.code]).toEqual([404, 'recurring_not_found']);
    for (const r of foreignChanges) expect([r.status, r.body.code]).toEqual([404, 'recurring_not_found']);
    expect(foreignList.body.data.recurring_invoices).toEqual([]);
    expect(await getSeries(key, series.id)).toEqual(series);
  });

  it('refuses bad input with a clear 400 and writes nothing', async () => {
    // Prepare
    const { key } = await newAccount();
    const bodies = [
      { ...seriesBody({ start: '01/31/2031', end: { after: 3 } }), schedule: undefined },
      seriesBody({ start: '01/31/2031', end: { after: 3 }, every: 0 }),
      seriesBody({ start: '01/31/2031', end: { after: 3 }, unit: 'day' }),
      seriesBody({ start: '01/31/2031', end: { on: '01/30/2031' } }),
      seriesBody({ start: '02/30/2031', end: { after: 3 } }),
      seriesBody({ start: '01/31/2031', end: {} }),
      seriesBody({ start: '01/31/2020', end: { on: '03/01/2020' } }),
      seriesBody({ start: '01/31/2031', end: { after: 3 } }, { merchant_ref: 'ORDER-1' }),
      seriesBody({ start: '01/31/2031', end: { after: 3 } }, { items: [] }),
    ];
    // Act
    const results = await Promise.all(bodies.map((body) => call('create-recurring-invoice', { key, body })));
    const listed = await call('list-recurring-invoices', { key });
    // Assess
    expect(results.map((r) => [r.status, r.body.code, r.body.errors[0]?.field])).toEqual([
      [400, 'validation_failed', 'schedule'],
      [400, 'validation_failed', 'schedule.every'],
      [400, 'validation_failed', 'schedule.unit'],
      [400, 'validation_failed', 'schedule.end.on'],
      [400, 'validation_failed', 'schedule.start'],
      [400, 'validation_failed', 'schedule.end'],
      [400, 'validation_failed', 'schedule.end'],
      [400, 'validation_failed', 'merchant_ref'],
      [400, 'validation_failed', 'items'],
    ]);
    expect(listed.body.data.recurring_invoices).toEqual([]);
  });

  it('pauses, resumes and cancels; repeating one changes nothing; a cancelled series cannot resume', async () => {
    // Prepare
    const { key } = await newAccount();
    const series = await createSeries(key, seriesBody({ start: '01/31/2031', end: { after: 12 } }));
    const change = (action: 'pause' | 'resume' | 'cancel') =>
      call(`${action}-recurring-invoice`, { key, pathParameters: { id: series.id } });
    // Act
    const answers = [];
    for (const action of ['pause', 'pause', 'resume', 'resume', 'cancel', 'cancel', 'resume', 'pause'] as const) {
      const r = await change(action);
      answers.push([r.status, r.status === 200 ? r.body.data.status : r.body.code]);
    }
    // Assess
    expect(answers).toEqual([
      [200, 'paused'],
      [200, 'paused'],
      [200, 'active'],
      [200, 'active'],
      [200, 'cancelled'],
      [200, 'cancelled'],
      [409, 'recurring_status_conflict'],
      [409, 'recurring_status_conflict'],
    ]);
    expect((await getSeries(key, series.id)).next_issue_date).toBeNull();
  });
});

describe('recurring invoices: the sweep', () => {
  it('dates every period from the anchor: 31 Jan, 28 Feb, 31 Mar, 30 Apr — each once, at or after 06:00 Lagos', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const series = await createSeries(key, seriesBody({ start: '01/31/2031', end: { after: 4 } }, { send: false }));
    // Act
    const before = await sweepAt(series, account.companyId, lagos('2031-01-31', 5, 59));
    const first = await sweepAt(series, account.companyId, lagos('2031-01-31', 6, 0));
    const rest = [];
    for (const day of ['2031-02-28', '2031-03-31', '2031-04-30'])
      rest.push(await sweepAt(series, account.companyId, lagos(day, 6)));
    // Assess
    expect([before.issued, first.issued, ...rest.map((r) => r.issued)]).toEqual([0, 1, 1, 1, 1]);
    const invoices = await invoicesOf(key, series.id);
    expect(invoices.map((i) => [i.period, i.recurring_id, i.due_date])).toEqual([
      [1, series.id, shown('2031-02-14')],
      [2, series.id, shown('2031-03-14')],
      [3, series.id, shown('2031-04-14')],
      [4, series.id, shown('2031-05-14')],
    ]);
    expect(new Set(invoices.map((i) => i.client_id)).size).toBe(1);
    expect(await getSeries(key, series.id)).toMatchObject({
      status: 'completed',
      issued_count: 4,
      next_issue_date: null,
    });
    const events = await listDeliveries(account.companyId);
    expect(events.filter((e) => e.type === 'invoice.created')).toHaveLength(4);
    const completed = events.filter((e) => e.type === 'recurring.completed');
    expect(completed).toHaveLength(1);
    const body = JSON.parse((await getEvent(completed[0]!.event_id))!.body);
    expect(body.data).toEqual(await getSeries(key, series.id));
  });

  it("issues at 06:00 in the account's own zone, across a daylight-saving change (New York, March 2031)", async () => {
    // Prepare: 06:00 is 11:00 UTC on Saturday 8 March (EST), 10:00 UTC a week later (EDT since the 9th)
    const { account, key } = await newAccount({ timeZone: 'America/New_York' });
    const weekly = seriesBody({ start: '03/08/2031', end: { after: 2 }, unit: 'week' }, { send: false });
    const series = await createSeries(key, weekly);
    // Act
    const at = (iso: string) => sweepAt(series, account.companyId, new Date(iso));
    const issued = [];
    for (const instant of [
      '2031-03-08T10:59:00Z',
      '2031-03-08T11:00:00Z',
      '2031-03-15T09:59:00Z',
      '2031-03-15T10:00:00Z',
    ])
      issued.push((await at(instant)).issued);
    // Assess
    expect(issued).toEqual([0, 1, 0, 1]);
    expect(await getSeries(key, series.id)).toMatchObject({ status: 'completed', issued_count: 2 });
  });

  it('creates missed periods once under racing sweeps and sends only the latest', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const series = await createSeries(key, seriesBody({ start: '01/31/2031', end: { on: '12/31/2031' } }));
    const late = lagos('2031-05-02', 9);
    // Act
    const sweeps = await Promise.all(Array.from({ length: 6 }, () => sweepAt(series, account.companyId, late)));
    const again = await sweepAt(series, account.companyId, late);
    // Assess
    expect(sweeps.reduce((sum, r) => sum + r.issued, 0)).toBe(4);
    expect(again.issued).toBe(0);
    const invoices = await invoicesOf(key, series.id);
    expect(invoices.map((i) => i.period)).toEqual([1, 2, 3, 4]);
    expect(invoices.map((i) => i.mail_status)).toEqual(['unsent', 'unsent', 'unsent', 'queued']);
    const jobs = await listMailJobs(account.companyId, 10);
    expect(jobs.map((j) => j.referenceCode)).toEqual([invoices[3]!.reference_code]);
    expect(await getSeries(key, series.id)).toMatchObject({
      status: 'active',
      issued_count: 4,
      next_issue_date: shown('2031-05-31'),
    });
  });

  it('creates nothing while paused; a refused period (client deleted) pauses the series with why', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const card = { card_token: 'tok_recurring_9876' };
    const series = await createSeries(key, seriesBody({ start: '01/31/2031', end: { after: 3 } }, card));
    await call('pause-recurring-invoice', { key, pathParameters: { id: series.id } });
    // Act
    const paused = await sweepAt(series, account.companyId, lagos('2031-01-31', 7));
    await call('resume-recurring-invoice', { key, pathParameters: { id: series.id } });
    const resumed = await sweepAt(series, account.companyId, lagos('2031-01-31', 7));
    await call('delete-client', { key, pathParameters: { id: series.client_id } });
    const refused = await sweepAt(series, account.companyId, lagos('2031-02-28', 7));
    // Assess
    expect([paused.issued, resumed.issued, refused.issued]).toEqual([0, 1, 0]);
    const [invoice] = await invoicesOf(key, series.id);
    expect(invoice).toMatchObject({ period: 1, card_token_last4: '9876' });
    expect(series.card_token_last4).toBe('9876');
    expect(await getSeries(key, series.id)).toMatchObject({
      status: 'paused',
      issued_count: 1,
      last_error: { code: 'client_not_found', period: 2 },
    });
  });
});
