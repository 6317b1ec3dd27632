/**
 * What the delete rows delete (bench/endpoint-defs.ts): each request voids an invoice or deletes a client never
 * deleted before, so a run needs as many as its warm-up, captures and the endpoint's side of every block send (the
 * floor's requests are the row's `floorMake`, which takes none). Seeded through the API, never timed.
 */
import { CONCURRENCY, SIZES } from './config.ts';
import { drive } from './drive.ts';
import { call, clientIdInvoice, newClient } from './requests.ts';

/** Requests a delete row sends in a run, and a margin (the warm-up runs 4 at a time). */
export const deletionsNeeded = (): number =>
  SIZES.warmup + SIZES.captures + SIZES.blocks * (SIZES.perBlock1 + SIZES.perBlock8) + CONCURRENCY;

/** Unpaid invoices of the writer's client and clients without invoices, `deletionsNeeded()` of each. */
export async function seedDeletions(port: number, key: string, clientId: number) {
  const count = deletionsNeeded();
  const invoices: string[] = [];
  const clients: number[] = [];
  await drive(count, CONCURRENCY, async () => {
    const answer = await call(port, clientIdInvoice(key, clientId), 201);
    invoices.push(answer.json.data.reference_code);
    return answer.ms;
  });
  await drive(count, CONCURRENCY, async () => {
    const answer = await call(port, newClient(key), 201);
    clients.push(Number(answer.json.data.id));
    return answer.ms;
  });
  return { invoices, clients };
}

/** Hands out `items` one at a time, each once; fails loudly when the run needs more than were seeded. */
export function taker<T>(items: readonly T[], what: string): () => T {
  let next = 0;
  return () => {
    if (next >= items.length) throw new Error(`the bench seeded ${items.length} ${what}: all deleted`);
    return items[next++]!;
  };
}
