/**
 * Black box: `npm start` runs the overdue sweep (docs/api.md "Overdue") at start and every OVERDUE_SWEEP_MS, and CLOCK_OFFSET_MS
 * moves its notion of today forward: an invoice due in five days is shown unpaid and not notified; started again a
 * week later (by the offset) it is shown overdue and its endpoint receives exactly one signed `invoice.overdue`, also
 * after many sweeps and another restart.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { type RunningService, waitUntilServing } from '../support/local-runtime.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-overdue-'));
const children: ChildProcess[] = [];
let dynamodbPort = 0;
let receiver: Server | undefined;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answeredWith: number;
}

let clockOffsetMs = 0;

function localEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    OVERDUE_SWEEP_MS: '200',
    CLOCK_OFFSET_MS: String(clockOffsetMs),
    ...process.env,
    PORT: '0',
    DYNAMODB_PORT: String(dynamodbPort),
    DATA_DIR: dataDir,
    TABLE_NAME: 'invoicing-local',
    LOG_LEVEL: 'WARN',
  };
  for (const name of ['DYNAMODB_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE'])
    delete env[name];
  return env;
}

/**
 * As `npm start` runs it (`node --import tsx infra/local/main.ts`): tsx is loaded into node, so SIGINT reaches
 * the service itself. (The tsx CLI relays signals and SIGKILLs its child when the child does not
 * acknowledge within 30 ms, which a busy, shared test machine does not always manage.)
 */
function startService(): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
    cwd: ROOT,
    env: localEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return waitUntilServing(child, 'the local runtime', 90_000);
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveExit) => {
    if (child.exitCode !== null) return resolveExit(child.exitCode);
    child.once('exit', (code) => resolveExit(code));
    child.kill('SIGINT');
  });
}

/** `npm run --silent <script> -- args` against the running service's database; one JSON line out. */
function npmRun(script: string, ...args: string[]): Promise<Record<string, unknown>> {
  const env = localEnv();
  delete env.TABLE_NAME;
  return new Promise((resolveLine, reject) => {
    execFile(
      'npm',
      ['run', '--silent', script, '--', ...args],
      { cwd: ROOT, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${script} failed: ${stderr}`));
        resolveLine(JSON.parse(stdout.trim()) as Record<string, unknown>);
      },
    );
  });
}

async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function post(service: RunningService, path: string, body: unknown): Promise<{ data: Record<string, any> }> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${service.secretKey}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return JSON.parse(text) as { data: Record<string, any> };
}

afterAll(() => {
  receiver?.close();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dynamodbPort) {
    const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
    for (const line of listing.split('\n')) {
      if (line.includes('DynamoDBLocal.jar') && new RegExp(`-port ${dynamodbPort}(\\s|$)`).test(line)) {
        process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
      }
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const DAY_MS = 86_400_000;

async function getInvoice(service: RunningService, referenceCode: string): Promise<Record<string, any>> {
  const response = await fetch(`${service.baseUrl}/invoices/${referenceCode}`, {
    headers: { authorization: `Bearer ${service.secretKey}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, any> }).data;
}

describe('invoice.overdue through npm start', { timeout: 300_000 }, () => {
  it('notifies once, on the first overdue day as CLOCK_OFFSET_MS moves today, however many sweeps and restarts', async () => {
    dynamodbPort = await freePort();
    const received: Received[] = [];
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answeredWith: 204 });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', () => r()));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    const first = await startService();
    const companyId = (JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8')) as { company_id: number })
      .company_id;
    const endpoint = await npmRun('webhook:set', '--company-id', String(companyId), '--url', receiverUrl);
    const verifier = new Webhook(endpoint.secret as string);
    const inFiveDays = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Africa/Lagos',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date(Date.now() + 5 * DAY_MS));
    const invoice = await post(first, '/invoices', {
      client: { first_name: 'Ada', last_name: 'Obi', email: 'ada.overdue@example.com', phone: '+2348012345678' },
      due_date: inFiveDays,
      fee_bearer: 'client',
      items: [{ item: 'Consulting', description: 'Advice', unit_cost: '1,500.00', quantity: '2' }],
    });
    const code = invoice.data.reference_code as string;
    const overdueEvents = () =>
      received
        .map(
          (request) =>
            verifier.verify(request.body, {
              'webhook-id': String(request.headers['webhook-id']),
              'webhook-timestamp': String(request.headers['webhook-timestamp']),
              'webhook-signature': String(request.headers['webhook-signature']),
            }) as Record<string, any>,
        )
        .filter((event) => event.type === 'invoice.overdue' && event.data.reference_code === code);
    await until('invoice.created delivered', () => received.length >= 1);
    await new Promise((r) => setTimeout(r, 2_000)); // ten sweeps
    expect((await getInvoice(first, code)).payment_status).toBe('unpaid');
    expect(overdueEvents()).toEqual([]);
    expect(await stop(first.child)).toBe(0);

    // A week later, by the clock offset: overdue as shown, and notified once.
    clockOffsetMs = 7 * DAY_MS;
    const second = await startService();
    const shown = await getInvoice(second, code);
    expect(shown.payment_status).toBe('overdue');
    await until('invoice.overdue delivered', () => overdueEvents().length >= 1);
    await new Promise((r) => setTimeout(r, 2_000)); // ten more sweeps
    expect(overdueEvents()).toHaveLength(1);
    const [event] = overdueEvents();
    expect(event).toMatchObject({ company_id: String(companyId) });
    expect(event!.data).toEqual(shown);
    expect(event!.data.client).toMatchObject({ email: 'ada.overdue@example.com' });
    expect(await stop(second.child)).toBe(0);

    const third = await startService();
    await new Promise((r) => setTimeout(r, 2_000));
    expect(new Set(overdueEvents().map((e) => e.id)).size).toBe(1);
    expect(await stop(third.child)).toBe(0);
  });
});
