/**
 * The real account CLI as a child process, against the test run's DynamoDB Local
 * (DYNAMODB_ENDPOINT + TABLE_NAME from the global setup).
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAccountByKey, getAccount } from '../../shared/store/accounts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');
const KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolveResult) => {
    execFile(TSX, ['infra/cli/main.ts', ...args], { cwd: ROOT, env: process.env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolveResult({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Exactly one JSON line on stdout. */
function jsonLine(output: string): Record<string, unknown> {
  expect(output.endsWith('\n')).toBe(true);
  const lines = output.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

function expectFailure(result: CliResult, message: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const body = jsonLine(result.stderr);
  expect(Object.keys(body)).toEqual(['error']);
  expect(String(body.error)).toMatch(message);
}

describe('account CLI', { timeout: 120_000 }, () => {
  it('creates an account, adds a key and revokes it', async () => {
    const created = await cli('account:create', '--name', 'Acme CLI Ltd', '--currency', 'usd', '--time-zone', 'Europe/London');
    expect(created.code).toBe(0);
    const account = jsonLine(created.stdout);
    expect(Object.keys(account)).toEqual(['company_id', 'secret_key']);
    expect(Number.isInteger(account.company_id)).toBe(true);
    expect(account.secret_key).toMatch(KEY_PATTERN);
    const companyId = account.company_id as number;
    expect(await getAccount(companyId)).toMatchObject({ name: 'Acme CLI Ltd', currency: 'USD', timeZone: 'Europe/London', tokenizationEnabled: false });

    const key = await cli('key:create', '--company-id', String(companyId));
    expect(key.code).toBe(0);
    const second = jsonLine(key.stdout);
    expect(second).toEqual({ company_id: companyId, secret_key: expect.stringMatching(KEY_PATTERN) });
    expect(second.secret_key).not.toBe(account.secret_key);
    expect((await findAccountByKey(second.secret_key as string))?.companyId).toBe(companyId);

    const revoked = await cli('key:revoke', '--key', second.secret_key as string);
    expect(revoked.code).toBe(0);
    expect(jsonLine(revoked.stdout)).toEqual({ company_id: companyId, revoked: true });
    expect(await findAccountByKey(second.secret_key as string)).toBeUndefined();
    expect((await findAccountByKey(account.secret_key as string))?.companyId).toBe(companyId);
  });

  it('fails with one JSON error line for an unknown company or key', async () => {
    expectFailure(await cli('key:create', '--company-id', '999999999'), /No account with company_id 999999999/);
    expectFailure(await cli('key:revoke', '--key', `sk_${'0'.repeat(40)}`), /No such secret key/);
  });

  it('fails with one JSON error line for bad arguments', async () => {
    expectFailure(await cli('account:create'), /--name is required/);
    expectFailure(await cli('key:create', '--company-id', 'abc'), /positive integer/);
    expectFailure(await cli('nope'), /Unknown command/);
  });
});
