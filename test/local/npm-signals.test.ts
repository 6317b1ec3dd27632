/**
 * docs/running-locally.md: `kill -TERM` or `kill -INT` sent to the pid of `npm start` alone (not its process group, as a
 * process manager or `kill <pid>` does) stops the whole service: npm exits 0, and 20 s later nothing of it
 * runs and neither its HTTP port nor DynamoDB Local's port answers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { groupAlive, npmStartEnv, waitGroupGone, waitUntilServing } from '../support/local-runtime.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-signals-'));
const groups: number[] = [];

function portAnswers(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });
}

afterAll(async () => {
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  for (const pgid of groups) await waitGroupGone(pgid, 10_000);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('signals sent to the npm start pid alone', { timeout: 120_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: npm exits 0 and nothing is left running or listening`, async () => {
      const dynamodbPort = await freePort();
      // Detached only so that afterAll can clean up after a failure; the signal goes to npm's pid alone.
      const npm = spawn('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: npmStartEnv({ dataDir, dynamodbPort }),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      groups.push(npm.pid!);
      const running = await waitUntilServing(npm, 'npm start', 90_000);
      const httpPort = Number(new URL(running.baseUrl).port);
      const exited = new Promise<{ code: number | null; by: NodeJS.Signals | null }>((r) =>
        npm.once('exit', (code, by) => r({ code, by })),
      );

      process.kill(npm.pid!, signal);

      expect(await exited, running.output()).toEqual({ code: 0, by: null });
      expect(await waitGroupGone(npm.pid!, 20_000), 'processes of npm start still running').toBe(true);
      expect(await portAnswers(httpPort)).toBe(false);
      expect(await portAnswers(dynamodbPort)).toBe(false);
    });
  }
});
