/**
 * What kill-in-flight.test.ts reads and sets up through the black box: the reminded invoices, their reminders as the
 * API shows them, the mail jobs as `mail:deliveries` lists them, the `.eml` files the local SES server kept, and
 * its fault injection.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { invoiceRequest } from '../support/fixtures.ts';
import { type NpmStartHarness, post, type RunningService } from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';

/** Each invoice's reminders as the API shows them: `offset@sent_at`. */
export type Reminders = Map<string, string[]>;

export interface MailJob {
  to: string;
  state: string;
  reference_code: string;
  reminder_offset: number | null;
}

/** `count` invoices due `dueDate`, each for its own client (so each reminder goes to its own address). */
export async function createRemindedInvoices(service: RunningService, count: number, dueDate: string) {
  const references: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = invoiceRequest(`kill.rem${i}@example.com`, {
      first_name: 'Kill',
      last_name: `Reminder${i}`,
      due_date: dueDate,
    });
    const answer = await post(service, '/invoices', body);
    expect(answer.status, answer.text).toBe(201);
    references.push(answer.json().data.reference_code as string);
  }
  // Reminders go only to invoices sent at least once (docs/receivables.md "Reminders"): each is e-mailed first.
  for (const reference of references) {
    const sent = await post(service, `/invoices/${reference}/send`, {});
    expect(sent.status, sent.text).toBe(200);
  }
  await until('the reminded invoices e-mailed once', async () => {
    const statuses = await Promise.all(references.map((reference) => mailStatusOf(service, reference)));
    return statuses.every((status) => status === 'sent');
  });
  return references;
}

async function mailStatusOf(service: RunningService, reference: string): Promise<string> {
  const response = await fetch(`${service.baseUrl}/invoices/${reference}`, {
    headers: { authorization: `Bearer ${service.secretKey}` },
  });
  return ((await response.json()) as { data: { mail_status: string } }).data.mail_status;
}

export async function shownReminders(service: RunningService, references: string[]): Promise<Reminders> {
  const shown: Reminders = new Map();
  for (const reference of references) {
    const response = await fetch(`${service.baseUrl}/invoices/${reference}`, {
      headers: { authorization: `Bearer ${service.secretKey}` },
    });
    const data = ((await response.json()) as { data: { reminders: { offset: number; sent_at: string }[] } }).data;
    shown.set(
      reference,
      data.reminders.map((r) => `${r.offset}@${r.sent_at}`),
    );
  }
  return shown;
}

/** Every mail job of the harness's account (sends and reminders), through the CLI. */
export async function mailJobs(harness: NpmStartHarness): Promise<MailJob[]> {
  const args = ['--company-id', String(harness.companyId()), '--limit', '1000'];
  return (await harness.cliLines('mail:deliveries', ...args)) as unknown as MailJob[];
}

/** The `To:` lines of the `.eml` files the local SES server kept under DATA_DIR/mail. */
export function emlRecipients(dataDir: string): string {
  const directory = join(dataDir, 'mail');
  if (!existsSync(directory)) return '';
  return readdirSync(directory)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => /^To: (.*)$/m.exec(readFileSync(join(directory, name), 'utf8'))?.[1] ?? '')
    .join('\n');
}

/** The local SES server answers every attempt with a throttle until it restarts (its fault injection). */
export async function throttleEveryAttempt(service: RunningService): Promise<void> {
  const inbox = /read sent mail in a browser at (http:\/\/\S+)/.exec(service.output())![1]!;
  const faults = await fetch(`${inbox}/_local/faults`, {
    method: 'POST',
    body: JSON.stringify({ kind: 'throttle', count: 10_000 }),
  });
  expect(faults.status).toBe(204);
}
