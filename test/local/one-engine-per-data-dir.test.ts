/**
 * Issue 17 §6: one DynamoDB Local per DATA_DIR. The CLI run with a DYNAMODB_PORT other than the running
 * `npm start`'s uses the engine that serves the DATA_DIR (infra/local/engine-record.ts) instead of starting a
 * second one on the same files; a second `npm start` on the same DATA_DIR refuses with one clear line.
 */
import { execFile, execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { runScript } from '../support/cli.ts';
import { NpmStartHarness, post } from '../support/npm-start-harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let harness: NpmStartHarness | undefined;

/** DynamoDB Local processes whose command line names this DATA_DIR. */
const enginesOnDataDir = () =>
  execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('DynamoDBLocal.jar') && line.includes(harness!.dataDir));

afterAll(async () => {
  await harness?.cleanUp();
});

describe('one DynamoDB Local per DATA_DIR', { timeout: 180_000 }, () => {
  it('the CLI with another DYNAMODB_PORT uses the running engine; a second npm start on the DATA_DIR refuses', async () => {
    const running = await NpmStartHarness.create('engine');
    harness = running;
    const service = await running.start();
    const otherPort = await freePort();
    const cliEnv: NodeJS.ProcessEnv = { ...running.env(), DYNAMODB_PORT: String(otherPort) };
    delete cliEnv.TABLE_NAME;

    const keyCreate = await runScript('key:create', ['--company-id', String(running.companyId())], { env: cliEnv });
    expect(keyCreate.code, keyCreate.stderr).toBe(0);
    const created = JSON.parse(keyCreate.stdout) as { secret_key: string };
    expect(enginesOnDataDir()).toHaveLength(1);
    // The key the CLI wrote is in the database the service reads.
    const withNewKey = await post({ ...service, secretKey: created.secret_key }, '/payments/history', {
      period: 'today',
    });
    expect(withNewKey.status, withNewKey.text).toBe(200);

    const second = await new Promise<{ code: number | null; output: string }>((done) =>
      execFile(
        'npm',
        ['start', '--silent'],
        { cwd: ROOT, env: { ...running.env(), DYNAMODB_PORT: String(otherPort) } },
        (error, stdout, stderr) =>
          done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
    expect(second.code).not.toBe(0);
    expect(second.output).toMatch(/DATA_DIR .* is in use: npm start \(pid \d+\)/);
    expect(enginesOnDataDir()).toHaveLength(1);
  });
});
