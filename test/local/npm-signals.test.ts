/**
 * docs/running-locally.md: `kill -TERM` or `kill -INT` sent to the pid of `npm start` alone (not its process group, as a
 * process manager or `kill <pid>` does) stops the whole service: npm exits 0, and 20 s later nothing of it
 * runs and neither its HTTP port nor DynamoDB Local's port answers.
 */
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { NpmStartHarness } from '../support/npm-start-harness.ts';

let harness: NpmStartHarness | undefined;

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
  await harness?.cleanUp();
});

describe('signals sent to the npm start pid alone', { timeout: 120_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: npm exits 0 and nothing is left running or listening`, async () => {
      harness ??= await NpmStartHarness.create('signals');
      // In a process group of its own only so that cleanUp can stop what a failure leaves; the signal goes to npm's
      // pid alone.
      const running = await harness.start();
      const httpPort = Number(new URL(running.baseUrl).port);

      const stopped = await harness.stop(signal, { to: 'npm', timeoutMs: 20_000 });

      expect(stopped, running.output()).toEqual({ code: 0, signal: null, groupGone: true });
      expect(await portAnswers(httpPort)).toBe(false);
      expect(await portAnswers(harness.dynamodbPort)).toBe(false);
    });
  }
});
