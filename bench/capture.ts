/** Capture: the DynamoDB round trips and consumed capacity of one request, seen from inside the runtime. */
import type { CapturedCall } from './bench-hooks.ts';
import { ask } from './ipc.ts';
import type { Child } from './processes.ts';
import { call, type RequestSpec } from './requests.ts';

interface CapacityEntry {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const READS = new Set(['BatchGetItemCommand', 'TransactGetItemsCommand', 'GetItemCommand', 'QueryCommand']);
/** Authentication's reads (API key, then account), made once per key per AUTH_CACHE_SECONDS per warm function. */
const isAuthRead = (c: CapturedCall) => {
  const key = (c.input.Key ?? {}) as { PK?: string; SK?: string };
  return c.command === 'GetItemCommand' && (String(key.PK).startsWith('APIKEY#') || key.SK === 'ACCOUNT');
};

/**
 * Id blocks (shared/store/sequences.ts) are refilled inside a request's own read and transaction (one request in
 * BLOCK_SIZE per process reads its sequence item and advances it), so they add no round trip; only the auth
 * reads are amortised outside the request path.
 */
const isAmortised = isAuthRead;

export function capacityOf(calls: readonly CapturedCall[]) {
  let rcu = 0;
  let wcu = 0;
  let indexUnits = 0;
  for (const c of calls) {
    const entries = ([] as CapacityEntry[]).concat(
      (c.consumedCapacity as CapacityEntry | CapacityEntry[] | undefined) ?? [],
    );
    for (const e of entries) {
      const units = e.CapacityUnits ?? 0;
      if (READS.has(c.command)) rcu += e.ReadCapacityUnits ?? units;
      else wcu += e.WriteCapacityUnits ?? units;
      for (const gsi of Object.values(e.GlobalSecondaryIndexes ?? {})) indexUnits += gsi.CapacityUnits ?? 0;
    }
  }
  return { rcu, wcu, indexUnits };
}

export interface CaptureFigures {
  samples: number;
  roundTrips: { min: number; max: number; commands: string[] };
  authReadsSeen: number;
  rcu: number;
  wcu: number;
  indexUnits: number;
  keysRead: number;
  capacityPerSample: { rcu: number; wcu: number }[];
  template: CapturedCall[];
  /** Length of the last captured response (the template's): what the floor answers. */
  responseBytes: number;
}

/** Keys the BatchGetItem and TransactGetItems calls of a request asked for. */
const keysReadBy = (calls: CapturedCall[]) =>
  calls.reduce((n, c) => {
    if (c.command === 'TransactGetItemsCommand') return n + (c.input.TransactItems as unknown[]).length;
    if (c.command !== 'BatchGetItemCommand') return n;
    return (
      n +
      Object.values(c.input.RequestItems as Record<string, { Keys: unknown[] }>).reduce((m, r) => m + r.Keys.length, 0)
    );
  }, 0);

export async function capture(
  server: Child,
  make: () => RequestSpec,
  expected: number,
  samples: number,
): Promise<CaptureFigures> {
  const perSample: CapturedCall[][] = [];
  let responseBytes = 0;
  for (let i = 0; i < samples; i++) {
    await ask(server.child, { type: 'captureStart' });
    responseBytes = (await call(server.port, make(), expected)).bytes;
    perSample.push(await ask<CapturedCall[]>(server.child, { type: 'captureStop' }));
  }
  const business = perSample.map((calls) => calls.filter((c) => !isAmortised(c)));
  const counts = business.map((calls) => calls.length);
  const template = business[business.length - 1]!;
  const capacities = business.map(capacityOf);
  return {
    samples,
    roundTrips: {
      min: Math.min(...counts),
      max: Math.max(...counts),
      commands: template.map((c) => c.command.replace(/Command$/, '')),
    },
    authReadsSeen: perSample.reduce((n, calls) => n + calls.filter(isAuthRead).length, 0),
    rcu: Math.max(...capacities.map((c) => c.rcu)),
    wcu: Math.max(...capacities.map((c) => c.wcu)),
    indexUnits: Math.max(...capacities.map((c) => c.indexUnits)),
    keysRead: keysReadBy(template),
    capacityPerSample: capacities.map(({ rcu, wcu }) => ({ rcu, wcu })),
    template,
    responseBytes,
  };
}
