/**
 * The webhook commands of the real CLI as child processes (what `npm run --silent webhook:*` runs:
 * test/support/cli.ts), against the test run's DynamoDB Local.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordAttempt } from '../../shared/store/webhooks.ts';
import { call, invoiceBody, newAccount } from '../support/api.ts';
import { type CliResult, runScript } from '../support/cli.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-webhook-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cli = (command: string, ...args: string[]) =>
  runScript(command, args, { env: { ...process.env, DATA_DIR: dataDir } });

const lines = (output: string) =>
  output
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function expectError(result: CliResult, message: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  // After the database note (infra/cli/database-note.ts) when the database was reached: the error, last.
  const all = lines(result.stderr);
  const body = all.at(-1);
  for (const note of all.slice(0, -1))
    expect(Object.keys(note)).toEqual([expect.stringMatching(/^(database|warning)$/)]);
  expect(Object.keys(body!)).toEqual(['error']);
  expect(String(body!.error)).toMatch(message);
}

describe('webhook CLI', { timeout: 120_000 }, () => {
  it('set prints the secret once, rotates on a second set; deliveries lists events; resend and remove answer one line', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const companyId = account.companyId;
    // Act
    const set = await cli('webhook:set', '--company-id', String(companyId), '--url', 'http://127.0.0.1:3999/hooks');
    const again = await cli('webhook:set', '--company-id', String(companyId), '--url', 'http://localhost:3999/hooks');
    // Assess
    expect(set.code, set.stderr).toBe(0);
    const [first] = lines(set.stdout);
    expect(Object.keys(first!)).toEqual(['company_id', 'url', 'secret']);
    expect(first).toEqual({
      company_id: companyId,
      url: 'http://127.0.0.1:3999/hooks',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const [second] = lines(again.stdout);
    expect(second!.secret).not.toBe(first!.secret);
    expect(statSync(join(dataDir, 'webhook-sealing.key')).mode & 0o777).toBe(0o600);

    await call('add-invoice', { key, body: invoiceBody() });
    const deliveries = await cli('webhook:deliveries', '--company-id', String(companyId));
    expect(deliveries.code, deliveries.stderr).toBe(0);
    const [line, ...more] = lines(deliveries.stdout);
    expect(more).toEqual([]);
    expect(line).toEqual({
      event_id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
      type: 'invoice.created',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      state: 'pending',
      attempts: 0,
      last_status: null,
      last_error: null,
      last_attempt_at: null,
      next_attempt_at: null,
    });

    // One failed attempt, a retry due in a minute: its times print as every CLI time does (UTC, no `T`, no ms).
    const retry = { result: 'retry', status: 500, nextAttemptMs: Date.parse('2030-01-02T03:05:06.789Z') } as const;
    expect(await recordAttempt(String(line!.event_id), 0, retry, Date.parse('2030-01-02T03:04:05.678Z'))).toBe(true);
    const [attempted] = lines((await cli('webhook:deliveries', '--company-id', String(companyId))).stdout);
    expect(attempted).toMatchObject({
      attempts: 1,
      last_status: 500,
      last_attempt_at: '2030-01-02 03:04:05',
      next_attempt_at: '2030-01-02 03:05:06',
    });

    const resend = await cli('webhook:resend', '--event-id', String(line!.event_id));
    expect(lines(resend.stdout)).toEqual([{ event_id: line!.event_id, company_id: companyId, resent: true }]);
    const removed = await cli('webhook:remove', '--company-id', String(companyId));
    expect(lines(removed.stdout)).toEqual([{ company_id: companyId, removed: true }]);
    expectError(await cli('webhook:remove', '--company-id', String(companyId)), /No webhook endpoint/);
  });

  it('refuses bad URLs, unknown accounts and events with one JSON error line', async () => {
    const { account } = await newAccount();
    const id = String(account.companyId);
    expectError(
      await cli('webhook:set', '--company-id', id, '--url', 'http://example.com/hooks'),
      /--url must use https/,
    );
    expectError(await cli('webhook:set', '--company-id', id, '--url', 'https://10.0.0.8/hooks'), /private/);
    expectError(await cli('webhook:set', '--company-id', id, '--url', 'https://169.254.169.254/'), /link-local/);
    expectError(await cli('webhook:set', '--company-id', '999999999', '--url', 'http://127.0.0.1:1/x'), /No account/);
    expectError(await cli('webhook:set', '--company-id', id), /--url is required/);
    expectError(await cli('webhook:deliveries', '--company-id', 'x'), /positive integer/);
    expectError(await cli('webhook:resend', '--event-id', 'evt_nope'), /event id/);
    expectError(await cli('webhook:resend', '--event-id', 'evt_01JD0000000000000000000009'), /No event/);
  });

  it.each(['webhook:set', 'webhook:remove', 'webhook:deliveries', 'webhook:resend'])(
    '%s --help prints its usage and exits 0',
    async (command) => {
      const result = await cli(command, '--help');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`npm run --silent ${command} --`);
    },
  );
});
