/**
 * The real local SES server (infra/local/ses-server.ts) for a test file that delivers mail below the queue: started
 * before its tests with the stage's SES endpoint and sender set (and any other variables given), stopped after them
 * with the variables restored and its mail folder removed. The messages it accepted are read back parsed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll } from 'vitest';
import { type LocalSes, type LocalSesOptions, startLocalSes } from '../../infra/local/ses-server.ts';
import { environmentRestorer } from '../../infra/tools/environment.ts';
import { resetConfig } from '../../shared/config.ts';
import { resetMailSender } from '../../shared/store/mail.ts';

export interface LocalSesFixture {
  /** The running server (after `beforeAll`). */
  ses(): LocalSes;
  /** The messages it accepted for `address`, parsed (`keepCidLinks` leaves inline images' `cid:` links as written). */
  messagesTo(address: string, options?: { keepCidLinks?: boolean }): Promise<ParsedMail[]>;
}

export function useLocalSes(options: {
  from: string;
  onNotice?: LocalSesOptions['onNotice'];
  environment?: Record<string, string>;
}): LocalSesFixture {
  const mailDir = mkdtempSync(join(tmpdir(), 'invoicing-mail-'));
  const names = ['SES_ENDPOINT', 'MAIL_FROM', ...Object.keys(options.environment ?? {})];
  const restoreEnvironment = environmentRestorer(names);
  let ses: LocalSes | undefined;
  beforeAll(async () => {
    const onNotice = options.onNotice ?? (async () => undefined);
    ses = await startLocalSes({ port: 0, mailDir, onNotice, noticeDelayMs: 50 });
    Object.assign(process.env, { SES_ENDPOINT: ses.url, MAIL_FROM: options.from, ...options.environment });
    resetConfig();
    resetMailSender();
  });
  afterAll(async () => {
    await ses?.stop();
    restoreEnvironment();
    resetMailSender();
    rmSync(mailDir, { recursive: true, force: true });
  });
  return {
    ses: () => {
      if (!ses) throw new Error('the local SES server starts before the tests');
      return ses;
    },
    async messagesTo(address, parse = {}) {
      const files = readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
      const parsed = await Promise.all(files.map((name) => simpleParser(readFileSync(join(mailDir, name)), parse)));
      return parsed.filter((message) => JSON.stringify(message.to).includes(address));
    },
  };
}
