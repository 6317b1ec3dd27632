/**
 * End to end: `npm start`'s program with its own DATA_DIR and ports. Start, serve, stop with SIGINT or SIGTERM sent to
 * the npm pid alone (as a process manager or `kill <pid>` does; docs/running-locally.md): npm exits 0, nothing of the
 * service runs 20 s later and neither its port nor DynamoDB Local's answers. Restarted on the same data it has the
 * same demo key, and the payments written before the stop with their Idempotency-Key records (a retry is a replay).
 * The CLI says which database it used, and warns when it is not the one this service serves.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { usDate } from '../../infra/local/banner.ts';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { runScript } from '../support/cli.ts';
import { dayOf } from '../support/days.ts';
import { invoiceRequest } from '../support/fixtures.ts';
import {
  alive,
  NpmStartHarness,
  post,
  postAsTold,
  type RunningService,
  todaysPayments,
} from '../support/npm-start-harness.ts';

const otherDataDir = mkdtempSync(join(tmpdir(), 'invoicing-start-other-'));
let harness: NpmStartHarness | undefined;

/** Pids of DynamoDB Local processes listening on the port of the service's engine. */
function javaPids(): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter(
      (line) => line.includes('DynamoDBLocal.jar') && new RegExp(`-port ${harness!.dynamodbPort}(\\s|$)`).test(line),
    )
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });
}

/**
 * `signal` to npm's pid alone, which passes it on: the service stops its DynamoDB Local itself. npm exits 0 and within
 * 20 s nothing of it runs or listens.
 */
async function stopAndExpectNothingLeft(service: RunningService, signal: 'SIGINT' | 'SIGTERM') {
  const ports = [Number(new URL(service.baseUrl).port), harness!.dynamodbPort];
  const stopped = await harness!.stop(signal, { to: 'npm', timeoutMs: 20_000 });
  expect(stopped, service.output()).toEqual({ code: 0, signal: null, groupGone: true });
  for (const port of ports) expect(await portAnswers(port), `port ${port} still answers`).toBe(false);
}

/** Three keyed payments of 100.00 on an invoice of their own, to find after the restart. */
async function keyedPayments(service: RunningService) {
  const invoice = await post(
    service,
    '/invoices',
    invoiceRequest('durable@example.com', {
      items: [{ item: 'Durable goods', description: 'x', unit_cost: '1,000,000.00', quantity: '1' }],
    }),
  );
  expect(invoice.status, invoice.text).toBe(201);
  const body = { reference_code: invoice.json().data.reference_code, date: dayOf(0).monthFirst, amount: '100.00' };
  const acknowledged: Record<string, any>[] = [];
  for (let i = 0; i < 3; i++) {
    const paid = await post(service, '/payments', { ...body, channel: 'Cash' }, `before-stop-${i}`);
    expect(paid.status, paid.text).toBe(201);
    acknowledged.push(paid.json().data);
  }
  return { body: { ...body, channel: 'Cash' }, acknowledged };
}

afterAll(async () => {
  await harness?.cleanUp();
  rmSync(otherDataDir, { recursive: true, force: true });
});

describe('npm start', { timeout: 240_000 }, () => {
  it('serves, stops cleanly on SIGINT and SIGTERM to npm alone, and keeps its data across restarts', async () => {
    harness = await NpmStartHarness.create('start');
    const { dataDir } = harness;
    const first = await harness.start();
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const notFound = await fetch(`${first.baseUrl}/nowhere`, { method: 'POST', body: '{}' });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ status: 'error', code: 'route_not_found' });

    const saved = JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8')) as {
      company_id: number;
      secret_key: string;
      paystack_secret_key: string;
    };
    expect(saved.secret_key).toBe(first.secretKey);
    // The local Paystack server, and the demo account connected to it (docs/getting-paid-online.md "Locally").
    const paystack = /^Paystack: a local Paystack-compatible server at (http:\/\/127\.0\.0\.1:\d+) /m.exec(
      first.output(),
    );
    expect(paystack, first.output()).not.toBeNull();
    expect(saved.paystack_secret_key).toMatch(/^sk_test_[0-9a-f]{40}$/);
    const webhookUrl = /its webhooks go to (\S+)$/m.exec(first.output())![1]!;
    expect(webhookUrl).toMatch(new RegExp(`^${first.baseUrl}/paystack/events/[A-Za-z0-9_-]{24}$`));
    const integration = await fetch(`${paystack![1]}/_local/integration`, {
      headers: { authorization: `Bearer ${saved.paystack_secret_key}` },
    });
    expect(((await integration.json()) as { data: { webhook_url: string } }).data.webhook_url).toBe(webhookUrl);
    expect(first.output()).toMatch(new RegExp(`^export BASE=${first.baseUrl} KEY=${first.secretKey} REF=\\S+$`, 'm'));

    const history = await fetch(`${first.baseUrl}/payments/history`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${first.secretKey}` },
      body: JSON.stringify({ period: 'today' }),
    });
    const text = await history.text();
    expect(history.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ status: 'success' });

    // Locally, a payment prints no EMF metric line (metrics are off: docs/running-locally.md), and a refusal the
    // service means (a 501, a 404) is no ERROR line with a stack: only failures are (LOG_LEVEL is WARN here).
    const demoInvoice = /^export BASE=\S+ KEY=\S+ REF=(\S+)$/m.exec(first.output())![1]!;
    const paid = await fetch(`${first.baseUrl}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${first.secretKey}` },
      body: JSON.stringify({
        reference_code: demoInvoice,
        date: usDate(new Date(), 'Africa/Lagos'),
        amount: '1',
        channel: 'Cash',
      }),
    });
    expect(paid.status, await paid.clone().text()).toBe(201);
    // Expected refusals (a 404 on each function's kind of route) are logged at INFO, without a stack.
    for (const path of ['/invoices/send/NoSuchInvoice', '/invoices/NoSuchInvoice', '/payments/987654321']) {
      const refused = await fetch(`${first.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${first.secretKey}` },
      });
      expect(refused.status).toBe(404);
    }
    await new Promise((r) => setTimeout(r, 500)); // let the last lines reach the pipe
    expect(first.output()).not.toContain('"_aws"');
    expect(first.output()).not.toContain('"level":"ERROR"');
    expect(first.output()).not.toContain('"stack"');

    // The CLI, with no endpoint or AWS settings, reaches the database of the running service.
    const cliEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      DYNAMODB_PORT: String(harness.dynamodbPort),
    };
    for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE'])
      delete cliEnv[name];
    const keyCreate = await runScript('key:create', ['--company-id', String(saved.company_id)], { env: cliEnv });
    expect(keyCreate.code, keyCreate.stderr).toBe(0);
    const created = JSON.parse(keyCreate.stdout) as { company_id: number; secret_key: string };
    expect(created.company_id).toBe(saved.company_id);
    // It says on stderr which database it used: the one this npm start serves (infra/cli/database-note.ts).
    const [note, ...noMore] = keyCreate.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(noMore).toEqual([]);
    expect(note.database).toMatch(new RegExp(`data in ${dataDir}, served by npm start \\(pid \\d+\\)$`));
    const withNewKey = await fetch(`${first.baseUrl}/payments/history`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.secret_key}` },
      body: '{"period":"today"}',
    });
    expect(withNewKey.status).toBe(200);

    // With another DATA_DIR, the CLI works on another database (started for it): it warns, naming the DATA_DIR
    // this npm start uses, and the service indeed refuses the key it printed.
    const elsewhere = await runScript('account:create', ['--name', 'Wrong Dir Ltd'], {
      env: { ...cliEnv, DATA_DIR: otherDataDir, DYNAMODB_PORT: String(await freePort()) },
    });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    const stranger = JSON.parse(elsewhere.stdout) as { secret_key: string };
    const notes = elsewhere.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(notes.map((line) => Object.keys(line)[0])).toEqual(['database', 'warning']);
    expect(notes[0].database).toContain(`data in ${otherDataDir}, started for this command`);
    // Other tests' npm starts may run at the same time: the warning names each, this one among them.
    expect(notes[1].warning).toMatch(new RegExp(`npm start \\(pid \\d+\\) uses DATA_DIR=${dataDir}[;:]`));
    expect(notes[1].warning).toContain('run the command with that DATA_DIR');
    const refused = await fetch(`${first.baseUrl}/payments/history`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stranger.secret_key}` },
      body: '{"period":"today"}',
    });
    expect(refused.status).toBe(401);

    const durable = await keyedPayments(first);
    const java = javaPids();
    expect(java).toHaveLength(1);
    await stopAndExpectNothingLeft(first, 'SIGINT');
    expect(alive(java[0]!)).toBe(false);
    expect(javaPids()).toEqual([]);

    const second = await harness.start();
    expect(second.secretKey).toBe(first.secretKey);
    // The same hook id (a new PORT=0 address in front of it).
    expect(second.output()).toContain(`/paystack/events/${webhookUrl.split('/').at(-1)}`);
    expect(JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8'))).toEqual(saved);
    // The payments and their Idempotency-Key records survived the stop: the retry is a replay, not a second payment.
    const kept = (await todaysPayments(second)).filter((p) => p.invoice.reference_code === durable.body.reference_code);
    expect(kept.map((p) => p.id).sort()).toEqual(durable.acknowledged.map((p) => p.id).sort());
    expect(kept[0]!.invoice.amount_paid).toBe('300.00');
    const replay = await postAsTold(second, '/payments', durable.body, 'before-stop-0');
    expect(replay.status, replay.text).toBe(201);
    expect(replay.replayed).toBe('true');
    expect(replay.json().data.id).toBe(durable.acknowledged[0]!.id);
    await stopAndExpectNothingLeft(second, 'SIGTERM');
    expect(javaPids()).toEqual([]);
  });
});
