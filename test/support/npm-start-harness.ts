/**
 * The black-box harness of the kill tests: `npm start` in its own process group on a DATA_DIR, the CLI
 * against it, HTTP calls with the demo key, and a webhook receiver whose answer each test decides.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { groupAlive, npmStartEnv, type RunningService, waitGroupGone, waitUntilServing } from './local-runtime.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Answer {
  status: number;
  text: string;
  replayed: string | null;
  json(): any;
}

export class NpmStartHarness {
  readonly groups: number[] = [];
  /** More environment for the next `start()` (e.g. CLOCK_OFFSET_MS, OVERDUE_SWEEP_MS). */
  extraEnv: NodeJS.ProcessEnv = {};

  /**
   * `dynamodbPort`: DynamoDB Local's port for the first start. Each restart takes a new free port: while nothing held
   * the old one, any listener on this machine may have been given it (a suite run once failed "Port … is in use by
   * another program"). The engine's port is in its DATA_DIR's record, which the CLI and a restart's orphan check read.
   */
  constructor(
    readonly dataDir: string,
    public dynamodbPort: number,
  ) {}

  env(): NodeJS.ProcessEnv {
    return npmStartEnv({
      dataDir: this.dataDir,
      dynamodbPort: this.dynamodbPort,
      extra: { WEBHOOK_RETRY_BASE_MS: '100', ...this.extraEnv },
    });
  }

  async start(): Promise<RunningService> {
    if (this.groups.length > 0) this.dynamodbPort = await freePort();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.groups.push(child.pid!);
    return waitUntilServing(child, 'npm start', 120_000);
  }

  companyId(): number {
    return JSON.parse(readFileSync(join(this.dataDir, 'demo-account.json'), 'utf8')).company_id;
  }

  /** A CLI command whose answer is one JSON line. */
  async cli(script: string, ...args: string[]): Promise<Record<string, unknown>> {
    return JSON.parse((await this.cliOutput(script, ...args)).trim());
  }

  /** A CLI command whose answer is one JSON line per record (e.g. `mail:deliveries`). */
  async cliLines(script: string, ...args: string[]): Promise<Record<string, unknown>[]> {
    const lines = (await this.cliOutput(script, ...args)).trim().split('\n').filter(Boolean);
    return lines.map((line) => JSON.parse(line));
  }

  private cliOutput(script: string, ...args: string[]): Promise<string> {
    const env = this.env();
    delete env.TABLE_NAME;
    return new Promise((resolveOutput, reject) => {
      execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env, timeout: 60_000 }, (e, out, err) =>
        e ? reject(new Error(`${script} failed: ${err}`)) : resolveOutput(out),
      );
    });
  }

  async cleanUp(): Promise<void> {
    for (const pgid of this.groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    for (const pgid of this.groups) await waitGroupGone(pgid, 10_000);
  }
}

export async function post(service: RunningService, path: string, body: unknown, key?: string): Promise<Answer> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${service.secretKey}`,
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    replayed: response.headers.get('idempotent-replayed'),
    json: () => JSON.parse(text),
  };
}

/** Every payment of today's history (all pages), with the invoice's amount_paid and the sum of the amounts in kobo. */
export async function todaysPayments(service: RunningService) {
  const payments: Record<string, any>[] = [];
  let cursor: string | null = null;
  do {
    const page = await post(service, '/payments/history', {
      period: 'today',
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    expect(page.status, page.text).toBe(200);
    payments.push(...page.json().data.payments);
    cursor = page.json().data.next_cursor;
  } while (cursor);
  return payments;
}

export const INVOICE_TO_PAY = {
  client: { first_name: 'Kill', last_name: 'Test', email: 'kills@example.com', phone: '+2348012345678' },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [{ item: 'Goods', description: 'x', unit_cost: '10,000,000.00', quantity: '1' }],
};

export interface ReceivedWebhook {
  webhookId: string;
  type: string;
  dataId: unknown;
}

/** A webhook receiver on loopback; `answer` decides each response (default 200). */
export async function startReceiver(
  answer: (request: IncomingMessage, response: ServerResponse, received: ReceivedWebhook) => void = (_q, response) =>
    void response.writeHead(200).end('ok'),
): Promise<{ server: Server; url: string; received: ReceivedWebhook[] }> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const webhook = { webhookId: String(request.headers['webhook-id']), type: event.type, dataId: event.data?.id };
      received.push(webhook);
      answer(request, response, webhook);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

/** Pids of the direct children of `pid` whose command line contains `command` (tsx also runs an esbuild child). */
export function childPids(pid: number, command = ''): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(command))
      .map((line) => Number(line.trim().split(/\s+/)[0]))
      .filter((child) => child > 0);
  } catch {
    return [];
  }
}

/** The node process of an `npm start` (npm execs it: npm's only node child) and its DynamoDB Local. */
export function runtimeProcesses(npmPid: number): { node: number; java: number } {
  const [node] = childPids(npmPid, 'infra/local/main.ts');
  const [java] = node ? childPids(node, 'DynamoDBLocal.jar') : [];
  if (!node || !java) throw new Error(`npm start ${npmPid}: node ${node}, java ${java} not found`);
  return { node, java };
}

export async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
