/**
 * What a new user runs first (docs/running-locally.md): `npm start` without Java, the banner's export line and examples
 * pasted in order, `GET /`, the docs page's payment example, and `kill <npm pid>` (SIGTERM) stopping node and Java.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { alive, NpmStartHarness } from '../support/npm-start-harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'invoicing-new-user-'));
let harness: NpmStartHarness | undefined;

afterAll(async () => {
  await harness?.cleanUp();
  rmSync(scratch, { recursive: true, force: true });
});

/** Every process below `pid` (children, grandchildren, …). */
function descendants(pid: number): number[] {
  const pairs = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of pairs) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

describe('without Java on the PATH', () => {
  // A PATH with node and nothing else: `java` cannot be found.
  const bin = join(scratch, 'bin');
  const env = (): NodeJS.ProcessEnv => {
    const base: NodeJS.ProcessEnv = { ...process.env, PATH: bin, DATA_DIR: join(scratch, 'nojava'), PORT: '0' };
    for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])
      delete base[name];
    return base;
  };

  it('npm start and the CLI print one clear line and exit non-zero', async () => {
    execFileSync('mkdir', ['-p', bin]);
    symlinkSync(process.execPath, join(bin, 'node'));
    const port = String(await freePort());
    for (const args of [
      ['--import', 'tsx', 'infra/local/main.ts'],
      ['--import', 'tsx', 'infra/cli/main.ts', 'account:create', '--name', 'Acme'],
    ]) {
      const result = spawnSync(process.execPath, args, {
        cwd: ROOT,
        env: { ...env(), DYNAMODB_PORT: port },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status, result.stderr).not.toBe(0);
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/Java 17/);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  }, 120_000);
});

describe('npm start for a new user', { timeout: 240_000 }, () => {
  it('GET / points to /docs; the banner examples work pasted in order; so does the docs payment example; SIGTERM to npm stops node and Java', async () => {
    harness = await NpmStartHarness.create('new-user');
    harness.extraEnv = { TABLE_NAME: undefined }; // the default table name, as a new user has it
    const service = await harness.start();

    const root = await fetch(`${service.baseUrl}/`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({ status: 'success', data: { docs: '/docs', openapi: '/openapi.json' } });

    // The examples, exactly as printed, run in order after the export line (pasted first, as the banner says).
    const blocks = service
      .output()
      .split('\n# ')
      .slice(1)
      .map((block) => block.split('\n').slice(1).join('\n').split('\n\n')[0]!.trimEnd());
    const [exported, ...examples] = blocks;
    expect(exported).toMatch(/^export BASE=http:\/\/\S+ KEY=sk_\S+ REF=\S+$/);
    expect(examples).toHaveLength(4); // invoice, payment, history, and e-mailing the demo invoice
    // In turn and asynchronously, so that fetch sees the service close an idle keep-alive connection meanwhile
    // (start.test.ts).
    const results = [];
    for (const command of examples)
      results.push(JSON.parse((await promisify(execFile)('sh', ['-c', `${exported}\n${command}`])).stdout));
    const [invoice, payment, history, sent] = results;
    expect(invoice.status, JSON.stringify(invoice)).toBe('success');
    expect(payment.status, JSON.stringify(payment)).toBe('success');
    expect(history.data.payments.map((p: { id: number }) => p.id)).toContain(payment.data.id);
    expect(sent.status, JSON.stringify(sent)).toBe('success');
    expect(sent.data.mail_status).toBe('queued');

    // The docs page's payment example names the demo invoice too.
    const document = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as any;
    const example = document.paths['/payments'].post.requestBody.content['application/json'].examples.request.value;
    expect(example.reference_code).toBe(payment.data.reference_code);
    const tried = await fetch(`${service.baseUrl}/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(example),
    });
    expect(tried.status, await tried.clone().text()).toBe(201);

    // `kill <npm pid>`: npm's shell dies without passing SIGTERM on; the service must still stop, Java included.
    const started = descendants(service.child.pid!);
    expect(started.length).toBeGreaterThanOrEqual(2); // at least node and Java
    await harness.stop('SIGTERM', { to: 'npm' });
    expect(started.filter(alive)).toEqual([]);
  });
});
