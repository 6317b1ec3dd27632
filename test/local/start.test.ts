/**
 * End to end: `npm start`'s program with its own DATA_DIR and ports. Start, serve, stop with
 * SIGINT (Java must go too), restart on the same data and find the same demo key.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { alive, npmStartEnv, type RunningService, waitUntilServing } from '../support/local-runtime.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-start-'));
const children: ChildProcess[] = [];
let dynamodbPort = 0;

type Running = RunningService;

/**
 * As `npm start` runs it (`node --import tsx infra/local/main.ts`), so SIGINT reaches the service itself. The tsx CLI
 * would relay it and SIGKILL its child (exit 130) when the child does not acknowledge within 30 ms, which a busy
 * machine does not always manage (seen once in CI on this file).
 */
function startService(): Promise<Running> {
  const env = npmStartEnv({ dataDir, dynamodbPort });
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return waitUntilServing(child, 'the local runtime', 90_000);
}

/** Pids of DynamoDB Local processes listening on our port. */
function javaPids(): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((line) => line.includes('DynamoDBLocal.jar') && new RegExp(`-port ${dynamodbPort}(\\s|$)`).test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveExit) => {
    if (child.exitCode !== null) return resolveExit(child.exitCode);
    child.once('exit', (code) => resolveExit(code));
    child.kill('SIGINT');
  });
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of dynamodbPort ? javaPids() : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', { timeout: 240_000 }, () => {
  it('serves, stops cleanly on SIGINT and keeps its data across restarts', async () => {
    dynamodbPort = await freePort();
    const first = await startService();
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const notFound = await fetch(`${first.baseUrl}/nowhere`, { method: 'POST', body: '{}' });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ status: 'error', code: 'route_not_found' });

    const saved = JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8')) as {
      company_id: number;
      secret_key: string;
    };
    expect(saved.secret_key).toBe(first.secretKey);
    expect(first.output()).toContain(`-H 'Authorization: Bearer ${first.secretKey}'`);

    const history = await fetch(`${first.baseUrl}/payments/history`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${first.secretKey}` },
      body: JSON.stringify({ period: 'today' }),
    });
    const text = await history.text();
    expect(history.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ status: 'success' });

    // The CLI, with no endpoint or AWS settings, reaches the database of the running service.
    const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DYNAMODB_PORT: String(dynamodbPort) };
    for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE'])
      delete cliEnv[name];
    // Not execFileSync: a blocked event loop cannot see the server close the idle keep-alive connection (after
    // 5 s), and the next fetch would reuse the dead socket ("other side closed") whenever the CLI took longer.
    const { stdout } = await promisify(execFile)(
      TSX,
      ['infra/cli/main.ts', 'key:create', '--company-id', String(saved.company_id)],
      { cwd: ROOT, env: cliEnv, encoding: 'utf8' },
    );
    const created = JSON.parse(stdout) as { company_id: number; secret_key: string };
    expect(created.company_id).toBe(saved.company_id);
    const withNewKey = await fetch(`${first.baseUrl}/payments/history`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.secret_key}` },
      body: '{"period":"today"}',
    });
    expect(withNewKey.status).toBe(200);

    const java = javaPids();
    expect(java).toHaveLength(1);
    expect(await stop(first.child)).toBe(0);
    expect(alive(java[0]!)).toBe(false);
    expect(javaPids()).toEqual([]);

    const second = await startService();
    expect(second.secretKey).toBe(first.secretKey);
    expect(JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8'))).toEqual(saved);
    expect(await stop(second.child)).toBe(0);
    expect(javaPids()).toEqual([]);
  });
});
