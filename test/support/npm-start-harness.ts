/**
 * The one harness of the black-box tests: `npm start` in its own process group on a DATA_DIR (start, wait until it
 * prints its URL and demo key, stop it with a signal, SIGKILL its whole group at a chosen moment, start it again on the
 * same DATA_DIR), the CLI against it, HTTP calls with the demo key, and a webhook receiver whose answer each test
 * decides.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { runScript } from './cli.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface RunningService {
  child: ChildProcess;
  baseUrl: string;
  secretKey: string;
  output: () => string;
}

/** How npm ended, and whether every process of its group had exited by the time the harness stopped waiting. */
export interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  groupGone: boolean;
}

export interface Answer {
  status: number;
  text: string;
  replayed: string | null;
  json(): any;
}

/** Resolves once the child printed its URL and demo key; rejects if it exits first or takes longer than `timeoutMs`. */
function waitUntilServing(child: ChildProcess, timeoutMs: number): Promise<RunningService> {
  let output = '';
  return new Promise((resolveRunning, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start not ready within ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const key = /Demo secret key: (sk_\S+)/.exec(output)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolveRunning({ child, baseUrl: url, secretKey: key, output: () => output });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before ready:\n${output}`));
    });
  });
}

/** Whether a process is alive (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  return alive(-pgid);
}

/** Waits until no process of the group is left; false if some still run after `timeoutMs`. */
async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !groupAlive(pgid);
}

/** npm's exit, whether it has happened already or not. */
function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
}

export class NpmStartHarness {
  readonly groups: number[] = [];
  /** More environment for the next `start()` (e.g. CLOCK_OFFSET_MS, OVERDUE_SWEEP_MS); `undefined` unsets a name. */
  extraEnv: NodeJS.ProcessEnv = {};
  /** What the last `start()` started. */
  service: RunningService | undefined;
  private ownsDataDir = false;

  /**
   * `dynamodbPort`: DynamoDB Local's port for the first start. Each restart takes a new free port: while nothing held
   * the old one, any listener on this machine may have been given it (a suite run once failed "Port … is in use by
   * another program"). The engine's port is in its DATA_DIR's record, which the CLI and a restart's orphan check read.
   */
  constructor(
    readonly dataDir: string,
    public dynamodbPort: number,
  ) {}

  /** A harness on a new temporary DATA_DIR (`cleanUp()` removes it) and a free port for DynamoDB Local. */
  static async create(name: string): Promise<NpmStartHarness> {
    const harness = new NpmStartHarness(mkdtempSync(join(tmpdir(), `invoicing-${name}-`)), await freePort());
    harness.ownsDataDir = true;
    return harness;
  }

  /** The environment of an `npm start` on free ports with this DATA_DIR (nothing inherited points elsewhere). */
  env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of [
      'DYNAMODB_ENDPOINT',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_PROFILE',
      'STRESS',
      'PAYSTACK_BASE_URL',
    ])
      delete env[name];
    Object.assign(env, {
      PORT: '0',
      DYNAMODB_PORT: String(this.dynamodbPort),
      DATA_DIR: this.dataDir,
      TABLE_NAME: 'invoicing-local',
      LOG_LEVEL: 'WARN',
      WEBHOOK_RETRY_BASE_MS: '100',
      ...this.extraEnv,
    });
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    return env;
  }

  /** `npm start` in a process group of its own; resolves once it serves (its URL and demo key printed). */
  async start(): Promise<RunningService> {
    if (this.groups.length > 0) this.dynamodbPort = await freePort();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.groups.push(child.pid!);
    this.service = await waitUntilServing(child, 120_000);
    return this.service;
  }

  /**
   * Sends `signal` to the whole process group (what Ctrl-C in a terminal does) or to npm's pid alone (what a process
   * manager or `kill <pid>` does); resolves with npm's exit once nothing of the group runs, or after `timeoutMs`.
   */
  async stop(
    signal: 'SIGINT' | 'SIGTERM' = 'SIGINT',
    { to = 'group', timeoutMs = 30_000 }: { to?: 'group' | 'npm'; timeoutMs?: number } = {},
  ): Promise<Stopped> {
    const { child } = this.service!;
    const exit = exited(child);
    process.kill(to === 'group' ? -child.pid! : child.pid!, signal);
    return { ...(await exit), groupGone: await waitGroupGone(child.pid!, timeoutMs) };
  }

  /** SIGKILL of the service's whole process group (npm, node, Java, the SES server) at once: no shutdown code runs. */
  kill(service = this.service!): void {
    process.kill(-service.child.pid!, 'SIGKILL');
  }

  /** Whether a process of the service's group still runs. */
  groupAlive(service = this.service!): boolean {
    return groupAlive(service.child.pid!);
  }

  /** Waits until nothing of the service's group runs; false if something still does after `timeoutMs`. */
  gone(service = this.service!, timeoutMs = 10_000): Promise<boolean> {
    return waitGroupGone(service.child.pid!, timeoutMs);
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

  /** `npm run --silent <script> -- args` with this DATA_DIR (test/support/cli.ts); a non-zero exit rejects. */
  private async cliOutput(script: string, ...args: string[]): Promise<string> {
    const env = this.env();
    delete env.TABLE_NAME;
    const result = await runScript(script, args, { env });
    if (result.code !== 0) throw new Error(`${script} failed: ${result.stderr}`);
    return result.stdout;
  }

  /** Kills whatever of its processes still runs, and removes the DATA_DIR it created. */
  async cleanUp(): Promise<void> {
    for (const pgid of this.groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    for (const pgid of this.groups) await waitGroupGone(pgid, 10_000);
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A request with the service's demo key; `method` GET sends no body. */
export async function request(
  service: RunningService,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  key?: string,
): Promise<Answer> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${service.secretKey}`,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    replayed: response.headers.get('idempotent-replayed'),
    json: () => JSON.parse(text),
  };
}

export const post = (service: RunningService, path: string, body: unknown, key?: string): Promise<Answer> =>
  request(service, 'POST', path, body, key);

export const get = (service: RunningService, path: string): Promise<Answer> => request(service, 'GET', path);

/** A POST that must create something: the 201 answer's body (any other answer fails the test, showing its text). */
export async function postCreated(
  service: RunningService,
  path: string,
  body: unknown,
): Promise<{ data: Record<string, any> }> {
  const answer = await post(service, path, body);
  expect(answer.status, answer.text).toBe(201);
  return answer.json();
}

/**
 * A POST retried as a client is told to: a 503 says nothing was written and to retry after `Retry-After` (a restarted
 * engine's first reads may outlast the functions' 1.5 s timeouts on a loaded machine); any other answer, or the
 * fifth 503, is returned.
 */
export async function postAsTold(service: RunningService, path: string, body: unknown, key?: string): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await post(service, path, body, key);
    if (answer.status !== 503 || attempt === 5) return answer;
    await new Promise((r) => setTimeout(r, 1_000)); // the Retry-After the service sends with a 503
  }
}

/** Every payment of today's history (all pages), with the invoice's amount_paid and the sum of the amounts in kobo. */
export async function todaysPayments(service: RunningService) {
  const payments: Record<string, any>[] = [];
  let cursor: string | null = null;
  do {
    const page = await postAsTold(service, '/payments/history', {
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

export interface ReceivedWebhook {
  webhookId: string;
  type: string;
  dataId: unknown;
  /** The request as it came, to verify its signature. */
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered with (0 while it has not answered). */
  answeredWith: number;
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
      const body = Buffer.concat(chunks).toString('utf8');
      const event = JSON.parse(body);
      const webhook: ReceivedWebhook = {
        webhookId: String(request.headers['webhook-id']),
        type: event.type,
        dataId: event.data?.id,
        headers: request.headers,
        body,
        answeredWith: 0,
      };
      received.push(webhook);
      answer(request, response, webhook);
      if (response.headersSent) webhook.answeredWith = response.statusCode;
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
