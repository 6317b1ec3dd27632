/**
 * The real account CLI as a user runs it (`npm run --silent <command> -- …`: the script's command, and through npm for
 * --help; test/support/cli.ts), against the test run's DynamoDB Local (DYNAMODB_ENDPOINT + TABLE_NAME from the global
 * setup).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../infra/cli/commands.ts';
import { ensureTable } from '../../infra/local/dynamodb-local.ts';
import { resetConfig } from '../../shared/config.ts';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { findAccountByKey, getAccount } from '../../shared/store/accounts.ts';
import { call } from '../support/api.ts';
import { type CliResult, runScript } from '../support/cli.ts';

const KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;
const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{16}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const cli = (command: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> =>
  runScript(command, args, { env });

/** JSON lines on stdout (each line one object). */
function jsonLines(output: string): Record<string, unknown>[] {
  if (output === '') return [];
  expect(output.endsWith('\n')).toBe(true);
  return output
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Exactly one JSON line on stdout. */
function jsonLine(output: string): Record<string, unknown> {
  const lines = jsonLines(output);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/**
 * What the CLI says on stderr about the database it worked on (infra/cli/database-note.ts): a `database` line, and
 * here a `warning` line too, since no `npm start` serves the test run's in-memory DynamoDB Local.
 */
function expectDatabaseNote(lines: Record<string, unknown>[]) {
  expect(lines.map((line) => Object.keys(line))).toEqual([['database'], ['warning']]);
  expect(lines[0]!.database).toMatch(/^table \S+ at http:\/\/127\.0\.0\.1:\d+ \(DYNAMODB_ENDPOINT\), in memory$/);
  expect(lines[1]!.warning).toMatch(/^No npm start serves this database/);
}

function succeeded(result: CliResult): CliResult {
  expect(result.code, result.stderr).toBe(0);
  expectDatabaseNote(jsonLines(result.stderr));
  return result;
}

/** Exit 1, nothing on stdout, and the error as the last stderr line (after the database note, once it was reached). */
function expectFailure(result: CliResult, message: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = jsonLines(result.stderr);
  const body = lines.at(-1)!;
  if (lines.length > 1) expectDatabaseNote(lines.slice(0, -1));
  expect(Object.keys(body)).toEqual(['error']);
  expect(String(body.error)).toMatch(message);
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
  clearAuthCache();
});

describe('account CLI', { timeout: 180_000 }, () => {
  it('creates an account, adds a key and revokes it', async () => {
    const created = succeeded(
      await cli('account:create', ['--name', 'Acme CLI Ltd', '--currency', 'usd', '--time-zone', 'Europe/London']),
    );
    const account = jsonLine(created.stdout);
    expect(Object.keys(account)).toEqual(['company_id', 'secret_key', 'key_id']);
    expect(Number.isInteger(account.company_id)).toBe(true);
    expect(account.secret_key).toMatch(KEY_PATTERN);
    expect(account.key_id).toMatch(KEY_ID_PATTERN);
    const companyId = account.company_id as number;
    expect(await getAccount(companyId)).toMatchObject({
      name: 'Acme CLI Ltd',
      currency: 'USD',
      timeZone: 'Europe/London',
      tokenizationEnabled: false,
    });

    const second = jsonLine(succeeded(await cli('key:create', ['--company-id', String(companyId)])).stdout);
    expect(second).toEqual({
      company_id: companyId,
      secret_key: expect.stringMatching(KEY_PATTERN),
      key_id: expect.stringMatching(KEY_ID_PATTERN),
      label: null,
      expires_at: null,
    });
    expect(second.secret_key).not.toBe(account.secret_key);
    expect((await findAccountByKey(second.secret_key as string))?.companyId).toBe(companyId);

    const revoked = succeeded(await cli('key:revoke', ['--key', second.secret_key as string]));
    expect(jsonLine(revoked.stdout)).toEqual({ company_id: companyId, key_id: second.key_id, revoked: true });
    expect(await findAccountByKey(second.secret_key as string)).toBeUndefined();
    expect((await findAccountByKey(account.secret_key as string))?.companyId).toBe(companyId);
  });

  it('labels and expiries keys, lists them without secrets, and revokes by key id', async () => {
    const account = jsonLine(succeeded(await cli('account:create', ['--name', 'Rotation Ltd'])).stdout);
    const companyId = String(account.company_id);
    const rotated = jsonLine(
      succeeded(
        await cli('key:create', ['--company-id', companyId, '--label', 'rotation 2026-03', '--expires-in-days', '30']),
      ).stdout,
    );
    expect(rotated.label).toBe('rotation 2026-03');
    expect(rotated.expires_at).toMatch(TIMESTAMP);
    const expiresInDays = (Date.parse(`${String(rotated.expires_at).replace(' ', 'T')}Z`) - Date.now()) / 86_400_000;
    expect(expiresInDays).toBeGreaterThan(29.9);
    expect(expiresInDays).toBeLessThanOrEqual(30);

    const listed = succeeded(await cli('key:list', ['--company-id', companyId]));
    const lines = jsonLines(listed.stdout);
    expect(lines.map((line) => line.key_id).sort()).toEqual([account.key_id, rotated.key_id].sort());
    for (const line of lines) {
      expect(Object.keys(line)).toEqual([
        'key_id',
        'company_id',
        'last4',
        'label',
        'created_at',
        'expires_at',
        'revoked_at',
        'status',
      ]);
      expect(line.created_at).toMatch(TIMESTAMP);
    }
    expect(lines.find((line) => line.key_id === rotated.key_id)).toMatchObject({
      last4: String(rotated.secret_key).slice(-4),
      label: 'rotation 2026-03',
      expires_at: rotated.expires_at,
      revoked_at: null,
      status: 'active',
    });
    for (const secret of [account.secret_key, rotated.secret_key] as string[])
      expect(listed.stdout).not.toContain(secret.slice(3, 20));

    const revoked = jsonLine(succeeded(await cli('key:revoke', ['--key-id', String(account.key_id)])).stdout);
    expect(revoked).toEqual({ company_id: account.company_id, key_id: account.key_id, revoked: true });
    expect(await findAccountByKey(account.secret_key as string)).toBeUndefined();
    expect((await findAccountByKey(rotated.secret_key as string))?.companyId).toBe(account.company_id);
    const after = jsonLines(succeeded(await cli('key:list', ['--company-id', companyId])).stdout);
    expect(after.find((line) => line.key_id === account.key_id)).toMatchObject({
      revoked_at: expect.stringMatching(TIMESTAMP),
      status: 'revoked',
    });
  });

  it('lists accounts, disables one (its keys stop working) and enables it again', async () => {
    const account = jsonLine(succeeded(await cli('account:create', ['--name', 'Disable Me Ltd'])).stdout);
    const companyId = String(account.company_id);
    const listed = jsonLines(succeeded(await cli('account:list')).stdout);
    const mine = listed.find((line) => line.company_id === account.company_id);
    expect(mine).toMatchObject({
      name: 'Disable Me Ltd',
      currency: 'NGN',
      time_zone: 'Africa/Lagos',
      disabled: false,
      disabled_at: null,
    });
    expect(JSON.stringify(listed)).not.toContain('cursor');

    const disabled = jsonLine(succeeded(await cli('account:disable', ['--company-id', companyId])).stdout);
    expect(disabled).toMatchObject({
      company_id: account.company_id,
      disabled: true,
      disabled_at: expect.stringMatching(TIMESTAMP),
    });
    expect(await findAccountByKey(account.secret_key as string)).toBeUndefined();
    expect(
      (await call('payment-history', { key: account.secret_key as string, body: { period: 'today' } })).status,
    ).toBe(401);

    const enabled = jsonLine(succeeded(await cli('account:enable', ['--company-id', companyId])).stdout);
    expect(enabled).toMatchObject({ company_id: account.company_id, disabled: false, disabled_at: null });
    expect((await findAccountByKey(account.secret_key as string))?.companyId).toBe(account.company_id);
  });

  it('data:migrate prints its counts as one JSON line, and a second run on the same table has nothing left', async () => {
    const table = `invoicing-migrate-${randomUUID().slice(0, 8)}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, table);
    const env = { ...process.env, TABLE_NAME: table };
    const first = jsonLine(succeeded(await cli('data:migrate', [], env)).stdout);
    expect(first).toEqual({
      invoices: expect.any(Number),
      clients: expect.any(Number),
      overdue_indexed: expect.any(Number),
      changed_meanwhile: 0,
      payments_counted: expect.any(Number),
      hosted_links: expect.any(Number),
      aging_counted: expect.any(Number),
      aging_changed_meanwhile: 0,
      credit_listed: expect.any(Number),
    });
    expect(jsonLine(succeeded(await cli('data:migrate', [], env)).stdout)).toEqual({
      invoices: 0,
      clients: 0,
      overdue_indexed: 0,
      changed_meanwhile: 0,
      payments_counted: 0,
      hosted_links: 0,
      aging_counted: 0,
      aging_changed_meanwhile: 0,
      credit_listed: 0,
    });
  });

  // Each command's npm script runs that command (test/local/cli-args.test.ts reads package.json) and each command's
  // help lists its options (the same file); through npm run, one command of each kind answers --help.
  it('--help answers through npm run, on stdout with exit 0, reaching no database', async () => {
    const shown = COMMANDS.filter((command) =>
      ['account:create', 'data:migrate', 'mail:deliveries'].includes(command.name),
    );
    expect(shown).toHaveLength(3);
    const results = await Promise.all(shown.map((command) => runScript(command.name, ['--help'], { viaNpm: true })));
    for (const [index, command] of shown.entries()) {
      const result = results[index]!;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe(''); // --help reaches no database
      expect(result.stdout).toContain(`npm run --silent ${command.name}`);
      for (const option of Object.keys(command.options)) expect(result.stdout).toContain(`--${option}`);
    }
  });

  it('fails with one JSON error line for an unknown company or key', async () => {
    const results = await Promise.all([
      cli('key:create', ['--company-id', '999999999']),
      cli('key:revoke', ['--key', `sk_${'0'.repeat(40)}`]),
      cli('key:revoke', ['--key-id', `key_${'0'.repeat(16)}`]),
      cli('key:list', ['--company-id', '999999999']),
      cli('account:disable', ['--company-id', '999999999']),
      cli('account:enable', ['--company-id', '999999999']),
    ]);
    expectFailure(results[0]!, /No account with company_id 999999999/);
    expectFailure(results[1]!, /No such secret key/);
    expectFailure(results[2]!, /No key with key_id key_0000000000000000/);
    for (const result of results.slice(3)) expectFailure(result, /No account with company_id 999999999/);
  });

  it('fails with one JSON error line for bad arguments', async () => {
    const results = await Promise.all([
      cli('account:create'),
      cli('key:create', ['--company-id', 'abc']),
      cli('key:revoke'),
      cli('key:create', ['--company-id', '1', '--expires-in-days', 'soon']),
    ]);
    expectFailure(results[0]!, /--name is required/);
    expectFailure(results[1]!, /positive integer/);
    expectFailure(results[2]!, /exactly one of --key-id and --key/);
    expectFailure(results[3]!, /--expires-in-days/);
  });
});
