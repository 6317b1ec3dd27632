/**
 * What the Paystack kill tests share (paystack-kill.test.ts: card checkouts; transfers-kill.test.ts: transfers into
 * virtual accounts): the local Paystack server `npm start` runs, signed `charge.success` webhooks posted as Paystack
 * posts them until SIGKILL of the whole group, and the stored events as `paystack:events` lists them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { NpmStartHarness, RunningService } from '../support/npm-start-harness.ts';
import { sign } from '../support/online-payments.ts';
import { until } from '../support/until.ts';

/** What this start's banner says of Paystack: the local server's URL and the demo account's webhook path. */
export function paystackOf(service: RunningService): { url: string; webhookPath: string } {
  const url = /local Paystack-compatible server at (http:\/\/\S+) /.exec(service.output())?.[1];
  const webhook = /its webhooks go to (http:\/\/\S+)/.exec(service.output())?.[1];
  if (!url || !webhook) throw new Error(`no Paystack lines in the banner:\n${service.output()}`);
  return { url, webhookPath: new URL(webhook).pathname };
}

export const demoSecretKey = (dataDir: string): string =>
  JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8')).paystack_secret_key;

/** Posts a signed webhook as Paystack does: the stored event's id when the service answered 200 (else undefined). */
export async function deliver(service: RunningService, body: string, secretKey: string): Promise<string | undefined> {
  try {
    const answer = await fetch(`${service.baseUrl}${paystackOf(service).webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(body, secretKey) },
      body,
    });
    const text = await answer.text();
    return answer.status === 200 ? JSON.parse(text).data.event_id : undefined;
  } catch {
    return undefined; // the connection died with the service: not acknowledged
  }
}

export interface Burst {
  harness: NpmStartHarness;
  service: RunningService;
  secretKey: string;
  /** Each webhook body is posted this many times, in a shuffled order. */
  copies: number;
  workers: number;
  /** SIGKILL once this many posts were answered 200. */
  killAfter: number;
}

/** Every body `copies` times, `workers` at a time, until SIGKILL of the group: the event ids answered 200. */
export async function deliverUntilKilled(bodies: string[], burst: Burst): Promise<string[]> {
  const { harness, service, secretKey } = burst;
  const queue = bodies.flatMap((body) => Array.from({ length: burst.copies }, () => body));
  queue.sort(() => Math.random() - 0.5);
  const acknowledged: string[] = [];
  let killed = false;
  await Promise.all(
    Array.from({ length: burst.workers }, async () => {
      while (!killed && queue.length > 0) {
        const eventId = await deliver(service, queue.pop()!, secretKey);
        if (eventId === undefined || killed) continue;
        acknowledged.push(eventId);
        if (acknowledged.length >= burst.killAfter) {
          killed = true;
          harness.kill(service); // npm, node, Java and the local Paystack server at once: no shutdown code runs
        }
      }
    }),
  );
  if (!killed) harness.kill(service);
  expect(await harness.gone(service), 'processes survived SIGKILL of the group').toBe(true);
  return acknowledged;
}

/** Every stored Paystack event of the demo account, as `paystack:events` lists them. */
export async function storedEvents(harness: NpmStartHarness): Promise<Record<string, any>[]> {
  const lines = await harness.cliLines(
    'paystack:events',
    '--company-id',
    String(harness.companyId()),
    '--limit',
    '1000',
  );
  return lines.filter((line) => line.kind === 'event');
}

/**
 * After the restart: waits until every stored event is processed (none left `received` or `retrying`), then checks
 * that every event answered 200 before the kill was kept and each ended `recorded` or `duplicate`. The events.
 */
export async function processedEvents(
  harness: NpmStartHarness,
  acknowledged: string[],
): Promise<Record<string, any>[]> {
  let events: Record<string, any>[] = [];
  await until(
    () => `every stored event processed; states: ${events.map((event) => event.state).join(', ')}`,
    async () => {
      events = await storedEvents(harness);
      return events.length > 0 && events.every((event) => !['received', 'retrying'].includes(event.state));
    },
    60_000,
    1_000, // each look is a CLI process
  );
  const stored = new Set(events.map((event) => event.id));
  expect(
    acknowledged.filter((id) => !stored.has(id)),
    'events answered 200 before the kill, lost',
  ).toEqual([]);
  const unexpected = events.filter((event) => !['recorded', 'duplicate'].includes(event.state));
  expect(unexpected, 'events neither recorded nor found recorded').toEqual([]);
  return events;
}
