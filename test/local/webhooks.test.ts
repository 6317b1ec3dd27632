/**
 * Black box: `npm start` delivers signed webhooks (docs/webhooks.md) to a real HTTP receiver on loopback,
 * which verifies every request with the `standardwebhooks` package (the receiver's side). The
 * receiver first answers 500, so each event is retried with the same webhook-id; `npm start` is
 * stopped while retries are pending and started again, and every event still arrives.
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
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-webhooks-'));
const children: ChildProcess[] = [];
let dynamodbPort = 0;
let receiver: Server | undefined;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answeredWith: number;
}

function localEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    DYNAMODB_PORT: String(dynamodbPort),
    DATA_DIR: dataDir,
    TABLE_NAME: 'invoicing-local',
    // Delays of 0.2 s, 1 s, 6 s, … instead of 1 min, 5 min, 30 min, …
    WEBHOOK_RETRY_BASE_MS: '200',
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

describe('webhooks through npm start', { timeout: 300_000 }, () => {
  it('delivers invoice.created, payment.recorded and invoice.paid, signed, retried after 500s, across a restart', async () => {
    dynamodbPort = await freePort();
    const received: Received[] = [];
    let status = 500;
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answeredWith: status });
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', () => r()));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    const first = await startService();
    const companyId = (JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8')) as { company_id: number })
      .company_id;
    const endpoint = await npmRun('webhook:set', '--company-id', String(companyId), '--url', receiverUrl);
    expect(endpoint).toMatchObject({
      company_id: companyId,
      url: receiverUrl,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const verifier = new Webhook(endpoint.secret as string);

    const invoice = await post(first, '/invoices', {
      client: { first_name: 'Ada', last_name: 'Obi', email: 'ada.webhooks@example.com', phone: '+2348012345678' },
      due_date: '12/31/2099',
      fee_bearer: 'client',
      items: [{ item: 'Consulting', description: 'Advice', unit_cost: '1,500.00', quantity: '2' }],
    });
    const today = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Africa/Lagos',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
    const payment = await post(first, '/payments', {
      reference_code: invoice.data.reference_code,
      date: today,
      amount: '3000',
      channel: 'BankTransfer',
    });

    const attemptsOf = (eventId: string) => received.filter(({ headers }) => headers['webhook-id'] === eventId);
    const eventIds = () => [...new Set(received.map(({ headers }) => String(headers['webhook-id'])))];
    // Each event is tried, refused, and tried again with the same webhook-id.
    await until(
      'two refused attempts of each of the three events',
      () => eventIds().length === 3 && eventIds().every((id) => attemptsOf(id).length >= 2),
    );
    expect(await stop(first.child)).toBe(0);
    const beforeRestart = received.length;

    // While it is down, retries are pending in DATA_DIR; after the restart they are delivered.
    status = 200;
    const second = await startService();
    // A pending retry may be due up to 24 s (120 × 200 ms, after a 4th attempt) after the stop.
    await until(
      'every event delivered with a 2xx',
      () => eventIds().every((id) => attemptsOf(id).some(({ answeredWith }) => answeredWith === 200)),
      120_000,
    );
    expect(received.length).toBeGreaterThan(beforeRestart);

    const events = new Map<string, Record<string, any>>();
    for (const request of received) {
      expect(request.headers['content-type']).toMatch(/^application\/json/);
      // Throws unless the signature over id, timestamp and body is valid (and the timestamp is recent).
      const verified = verifier.verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }) as Record<string, any>;
      expect(verified.id).toBe(request.headers['webhook-id']);
      expect(request.headers['webhook-id']).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
      // Every attempt of an event carries the same body.
      if (events.has(verified.id)) expect(verified).toEqual(events.get(verified.id));
      events.set(verified.id, verified);
    }
    const byType = new Map([...events.values()].map((event) => [event.type as string, event]));
    expect([...byType.keys()].sort()).toEqual(['invoice.created', 'invoice.paid', 'payment.recorded']);
    for (const event of byType.values()) {
      expect(event).toMatchObject({
        company_id: String(companyId),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      });
    }
    expect(byType.get('invoice.created')!.data).toEqual(invoice.data);
    expect(byType.get('payment.recorded')!.data).toEqual(payment.data);
    const paid = byType.get('invoice.paid')!.data;
    expect(paid).toMatchObject(payment.data.invoice);
    expect(paid.client).toMatchObject({ email: 'ada.webhooks@example.com' });
    // Delivered events are not delivered again.
    const delivered = received.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(received.length).toBe(delivered);

    expect(await stop(second.child)).toBe(0);
  });
});
