/**
 * Issue 17 §6: a wrong `-c` option makes `cdk synth` print one clear line and exit 1, never a stack trace.
 * Runs the app as the CDK CLI does (cdk.json `app`, context in CDK_CONTEXT_JSON).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function synthWith(context: Record<string, string>) {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-app-errors-'));
  try {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'infra/app.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        CDK_CONTEXT_JSON: JSON.stringify({ ...context, 'aws:cdk:bundling-stacks': [] }),
        CDK_OUTDIR: outdir,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: run.status, stderr: run.stderr.trim() };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe('cdk synth with a wrong option', { timeout: 150_000 }, () => {
  it.each([
    [{ stage: 'prod' }, /^Stage prod sends alarms by email: give the address with -c alarmEmail=/],
    [{ stage: 'Prod' }, /^Invalid stage name "Prod": use lower-case letters/],
    [{ stage: 'dev', alarmEmail: 'nobody' }, /^Invalid alarmEmail "nobody"/],
  ])('%o → one line, exit 1, no stack trace', (context, message) => {
    const { status, stderr } = synthWith(context);
    expect(status).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr.split('\n')).toHaveLength(1);
  });
});
