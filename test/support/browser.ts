/**
 * What the browser tests share (test/docs/*-browser.test.ts, test/docs/browser.test.ts): Debian's Chromium driven by
 * playwright-core (installed by scripts/ensure-chromium.sh where it is missing), the local HTTP runtime on a free port,
 * and the folder their screenshots go to (docs/images/ holds copies for the guides).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { createLocalServer, type LocalServerOptions } from '../../infra/local/server.ts';

const CHROMIUM = '/usr/bin/chromium';

/** Where screenshots go: test-artifacts/, made on first use. */
export const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return new URL(name, ARTIFACTS).pathname;
}

/** Headless Chromium, installed first where it is missing (a first install takes minutes: the caller's hook allows 10). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    execFileSync('bash', [new URL('../../scripts/ensure-chromium.sh', import.meta.url).pathname], {
      stdio: 'inherit',
      timeout: 540_000,
    });
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** The local HTTP runtime (infra/local/server.ts) on a free loopback port. */
export async function startLocalRuntime(options: LocalServerOptions): Promise<RunningServer> {
  const server = createLocalServer(options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
