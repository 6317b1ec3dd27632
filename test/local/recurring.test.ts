/**
 * Black box (docs/recurring-invoices.md): `npm start` issues a recurring invoice's periods with its sweep, each exactly
 * once, also when SIGKILL stops it in the middle of a sweep and it starts again — and e-mails only the latest of the
 * missed periods, the e-mail arriving in DATA_DIR/mail. CLOCK_OFFSET_MS moves the sweep's clock 60 weeks ahead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../support/days.ts';
import { NpmStartHarness, post, type RunningService } from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';

const DAY_MS = 86_400_000;
const WEEKS = 60;
let harness: NpmStartHarness | undefined;

afterAll(async () => {
  await harness?.cleanUp();
});

const CLIENT = 'weekly.rent@example.com';

async function getJson(service: RunningService, path: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${service.secretKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: any }).data;
}

const issuedCount = async (service: RunningService, id: string): Promise<number> =>
  (await getJson(service, `/recurring-invoices/${id}`)).issued_count;

/** The e-mails in DATA_DIR/mail to the series' client. */
function mailsToClient(): number {
  const directory = join(harness!.dataDir, 'mail');
  let names: string[] = [];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.eml'));
  } catch {
    return 0;
  }
  return names.filter((name) => readFileSync(join(directory, name), 'utf8').includes(CLIENT)).length;
}

describe('recurring invoices through npm start', { timeout: 600_000 }, () => {
  it('issues each period once across a SIGKILL during the sweep, and e-mails only the latest', async () => {
    harness = await NpmStartHarness.create('recurring');
    // No sweep but the one at start while the series is created; it starts tomorrow.
    harness.extraEnv = { OVERDUE_SWEEP_MS: '3600000', CLOCK_OFFSET_MS: '0' };
    let service = await harness.start();
    const body = {
      client: { first_name: 'Ife', last_name: 'Ola', email: CLIENT, phone: '+2348031234567' },
      fee_bearer: 'account',
      items: [{ item: 'Rent', description: 'Weekly', unit_cost: '50,000.00', quantity: '1' }],
      schedule: { every: 1, unit: 'week', start: dayOf(1).monthFirst, due_in_days: 3, end: { after: 200 } },
      send: true,
    };
    const created = await post(service, '/recurring-invoices', body);
    expect(created.status, created.text).toBe(201);
    const id = created.json().data.id as string;
    await harness.stop();

    // 60 weeks and 2 days later, sweeping every 100 ms: periods 1–61 are due. Killed once some are created.
    harness.extraEnv = { OVERDUE_SWEEP_MS: '100', CLOCK_OFFSET_MS: String((WEEKS * 7 + 2) * DAY_MS) };
    service = await harness.start();
    let beforeKill = 0;
    await until('a few periods', async () => (beforeKill = await issuedCount(service, id)) >= 10, 120_000, 20);
    harness.kill();
    expect(await harness.gone()).toBe(true);
    expect(beforeKill).toBeLessThan(WEEKS + 1); // killed while the sweep was still creating them

    service = await harness.start();
    await until('every period', async () => (await issuedCount(service, id)) === WEEKS + 1, 180_000, 200);
    await until('the e-mail', async () => mailsToClient() >= 1, 90_000, 200);
    await new Promise((r) => setTimeout(r, 2_000)); // about twenty more sweeps
    // Each period's invoice is dated its period's issue date: the history of the series' years, 366 days at a time.
    const invoices: { recurring_id?: string; period?: number }[] = [];
    for (let from = 1; from <= WEEKS * 7 + 2; from += 366) {
      const window = { period: 'custom', start: dayOf(from).dayFirst, end: dayOf(from + 365).dayFirst, limit: 500 };
      invoices.push(...(await getJson(service, '/invoices/history', window)).invoices);
    }
    const periods = invoices
      .filter((invoice) => invoice.recurring_id === id)
      .map((invoice) => invoice.period!)
      .sort((a, b) => a - b);
    expect(periods).toEqual(Array.from({ length: WEEKS + 1 }, (_, n) => n + 1));
    expect(await issuedCount(service, id)).toBe(WEEKS + 1);
    expect(mailsToClient()).toBe(1);
    await harness.stop();
  });
});
