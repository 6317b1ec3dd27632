/**
 * The floor: each endpoint's captured DynamoDB requests replayed by the floor process (bench/floor-child.ts,
 * method in bench/replay.ts), reached through HTTP by the same client as the endpoint.
 */
import { WEBHOOK_EVENT_ENTITY } from '../shared/store/webhooks.ts';
import type { CapturedCall } from './bench-hooks.ts';
import { capacityOf } from './capture.ts';
import { runTag } from './config.ts';
import { drive, type Run } from './drive.ts';
import { ask } from './ipc.ts';
import { httpOp, measured } from './load.ts';
import { isWriteRequest, type ReplayTemplate } from './replay.ts';
import type { MakeRequest } from './requests.ts';

/** The captured calls with the webhook outbox items (docs/webhooks.md) taken out of their transaction. */
export const withoutOutboxItems = (calls: CapturedCall[]): CapturedCall[] =>
  calls.map((call) => {
    if (call.command !== 'TransactWriteItemsCommand') return call;
    const actions = call.input.TransactItems as { Put?: { Item?: { entity?: unknown } } }[];
    const kept = actions.filter((action) => action.Put?.Item?.entity !== WEBHOOK_EVENT_ENTITY);
    return { ...call, input: { ...call.input, TransactItems: kept } };
  });

/** What the floor process needs of a captured request: read-only requests need no pre-state (the items read). */
export const floorTemplate = (calls: CapturedCall[]): ReplayTemplate => {
  const write = isWriteRequest(calls);
  return { write, calls: write ? calls : calls.map(({ items: _items, ...call }) => call) };
};

/**
 * Seeds `count` replays of `template` in the floor process under `key` (never timed); the floor will answer each
 * with `responseBytes` bytes, the length of the endpoint's response.
 */
export const prepareFloor = (key: string, template: ReplayTemplate, count: number, responseBytes: number) =>
  ask(measured.floor!.child, {
    type: 'prepare',
    key,
    template,
    count,
    responseBytes,
    tagPrefix: `${runTag}${key}-`,
  });

/**
 * Runs the replays prepared under `key` through the floor's HTTP server, sent by the same client as the endpoint's
 * requests with the same bodies and headers (`make`), `concurrency` at a time.
 */
export async function runFloorBlock(key: string, concurrency: number, count: number, make: MakeRequest): Promise<Run> {
  const run = await runFloorReplays(key, 0, count, concurrency, make);
  await ask(measured.floor!.child, { type: 'forget', key });
  return run;
}

/** Replays `first` … `first + count - 1` of the block prepared under `key` (the block stays prepared). */
export function runFloorReplays(
  key: string,
  first: number,
  count: number,
  concurrency: number,
  make: MakeRequest,
): Promise<Run> {
  return drive(
    count,
    concurrency,
    httpOp(
      measured.floor!.port,
      (i, worker) => {
        // The endpoint's body and headers; its answer is the floor's, of no use to a pool (`onAnswer`).
        const { onAnswer: _endpointOnly, ...spec } = make(first + i, worker);
        return { ...spec, path: `/replay/${key}/${first + i}` };
      },
      200,
      {},
    ),
  );
}

export async function runFloor(
  template: ReplayTemplate,
  count: number,
  concurrency: number,
  key: string,
  make: MakeRequest,
  responseBytes: number,
): Promise<Run> {
  await prepareFloor(key, template, count, responseBytes);
  return runFloorBlock(key, concurrency, count, make);
}

/**
 * Sends one replay and compares what DynamoDB reported for it with the captured request: the same commands and
 * the same consumed capacity mean the floor asks DynamoDB for the same work (a floor writing a different item,
 * e.g. a binary attribute turned into a map, shows here as different write units).
 */
export async function checkFloor(template: ReplayTemplate, original: CapturedCall[], key: string) {
  const sent = await ask<CapturedCall[]>(measured.floor!.child, {
    type: 'check',
    template,
    tagPrefix: `${runTag}${key}-`,
  });
  const floorCapacity = capacityOf(sent);
  const endpointCapacity = capacityOf(original);
  const sameCommands =
    sent
      .map((c) => c.command)
      .sort()
      .join() ===
    original
      .map((c) => c.command)
      .sort()
      .join();
  const errors = sent.filter((c) => c.error).map((c) => `${c.command}: ${c.error}`);
  const same =
    sameCommands &&
    errors.length === 0 &&
    floorCapacity.rcu === endpointCapacity.rcu &&
    floorCapacity.wcu === endpointCapacity.wcu &&
    floorCapacity.indexUnits === endpointCapacity.indexUnits;
  const describe = (c: ReturnType<typeof capacityOf>) => `${c.rcu} RCU, ${c.wcu} WCU (index ${c.indexUnits})`;
  const line = same
    ? `same commands and capacity as the endpoint (${describe(floorCapacity)})`
    : `DIFFERENT from the endpoint: floor ${describe(floorCapacity)}, endpoint ${describe(endpointCapacity)}${errors.length ? `; errors ${errors.join(', ')}` : ''}`;
  return { same, floor: floorCapacity, endpoint: endpointCapacity, line };
}
