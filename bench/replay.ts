/**
 * The floor: the exact DynamoDB requests an endpoint made (captured by bench/server-child.ts), replayed by
 * the floor process (bench/floor-child.ts) with the same document client (shared/store/dynamodb-client.ts) against the
 * same DynamoDB Local, so that "endpoint ÷ floor" is what our code and the HTTP hop add.
 *
 * Writes cannot be replayed verbatim (their conditions would fail the second time), so each replay of a
 * write request gets fresh keys: every partition key value in the captured requests is renamed
 * consistently (`<PK>~<tag>`), and before the timed phase the items the original request read (its
 * BatchGetItem/TransactGetItems/GetItem results: sequences, invoice header/body, client…) are written under the
 * renamed keys with BatchWriteItem. Each replay therefore reads the same items, and its transaction meets the same
 * conditions against the same state (sequence value, invoice version, absent idempotency record), with
 * items of the same shape (a few bytes longer keys). Read-only requests (history) are replayed verbatim.
 * Calls the request sent concurrently are replayed concurrently (`replayWaves`). A replay that takes the account's
 * next gapless number takes its turn as the endpoint's request does (`numberTurn`).
 */
import { createHash } from 'node:crypto';
import {
  BatchGetCommand,
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { oneAtATime } from '../shared/services/one-at-a-time.ts';
import { type DocumentKind, keys } from '../shared/store/keys.ts';
import { TABLE } from '../shared/store/table.ts';
import type { CapturedCall } from './bench-hooks.ts';

type Input = Record<string, any>;

const COMMANDS: Record<string, new (input: any) => any> = {
  BatchGetItemCommand: BatchGetCommand,
  TransactGetItemsCommand: TransactGetCommand,
  GetItemCommand: GetCommand,
  QueryCommand,
  TransactWriteItemsCommand: TransactWriteCommand,
  PutItemCommand: PutCommand,
  UpdateItemCommand: UpdateCommand,
};

export const isWriteRequest = (calls: readonly CapturedCall[]): boolean =>
  calls.some((c) =>
    ['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'BatchWriteItemCommand'].includes(c.command),
  );

const renameKey = (key: Input, tag: string): Input => ({ ...key, PK: `${String(key.PK)}~${tag}` });

const INDEX_SORT_KEY = TABLE.listingIndex.sortKey;
/**
 * A written item under its renamed key. Its index sort key is made unique too: otherwise every replayed payment
 * would carry the captured payment's very same GSI1 key, and hundreds of identical index keys cost DynamoDB
 * Local more per write than the endpoint's unique ones (a floor slower than the real work: ratios under 1).
 */
const renameItem = (item: Input, tag: string): Input =>
  INDEX_SORT_KEY in item
    ? { ...renameKey(item, tag), [INDEX_SORT_KEY]: `${String(item[INDEX_SORT_KEY])}~${tag}` }
    : renameKey(item, tag);

/** The captured input with every primary-key PK renamed for replay `tag` (pure; used by the unit test). */
export function freshenInput(command: string, input: Input, tag: string): Input {
  const copy: Input = structuredClone(input);
  switch (command) {
    case 'BatchGetItemCommand':
      for (const request of Object.values(copy.RequestItems as Record<string, Input>))
        request.Keys = request.Keys.map((k: Input) => renameKey(k, tag));
      return copy;
    case 'TransactGetItemsCommand':
      for (const action of copy.TransactItems as Input[]) action.Get.Key = renameKey(action.Get.Key, tag);
      return copy;
    case 'GetItemCommand':
    case 'UpdateItemCommand':
      copy.Key = renameKey(copy.Key, tag);
      return copy;
    case 'PutItemCommand':
      copy.Item = renameItem(copy.Item, tag);
      return copy;
    case 'TransactWriteItemsCommand':
      // Each replay is a different transaction: reusing the captured token would make DynamoDB refuse it
      // (IdempotentParameterMismatch) or answer it without doing the work.
      if (typeof copy.ClientRequestToken === 'string')
        copy.ClientRequestToken = createHash('sha256')
          .update(`${copy.ClientRequestToken}~${tag}`)
          .digest('hex')
          .slice(0, 36);
      for (const action of copy.TransactItems as Input[]) {
        if (action.Put) action.Put.Item = renameItem(action.Put.Item, tag);
        for (const kind of ['Update', 'ConditionCheck', 'Delete'])
          if (action[kind]) action[kind].Key = renameKey(action[kind].Key, tag);
      }
      return copy;
    default:
      return copy;
  }
}

/**
 * Items that must exist under the renamed keys before replay `tag` runs: what the original request read, each item
 * once. A request may read an item twice (a reversal's GetItem of the payment, then its TransactGetItems of the
 * same payment): BatchWriteItem refuses a batch naming one key twice, and the later read is the state the request
 * decided on.
 */
export function preStateItems(calls: readonly CapturedCall[], tag: string): { table: string; item: Input }[] {
  const out = new Map<string, { table: string; item: Input }>();
  for (const call of calls) {
    if (!call.items || call.items.length === 0) continue;
    const table =
      call.command === 'BatchGetItemCommand'
        ? Object.keys(call.input.RequestItems as Input)[0]!
        : call.command === 'TransactGetItemsCommand'
          ? String((call.input.TransactItems as Input[])[0]!.Get.TableName)
          : String(call.input.TableName);
    for (const item of call.items) {
      const key = JSON.stringify([table, item.PK, item.SK]);
      out.delete(key); // keep the first-read order of the others; the later read wins
      out.set(key, { table, item: renameItem(item, tag) });
    }
  }
  return [...out.values()];
}

export interface ReplayTemplate {
  calls: CapturedCall[];
  write: boolean;
}

export interface PreparedReplay {
  /** The calls of one replay in waves: the calls of a wave are sent together, the waves one after another. */
  waves: { command: string; input: Input }[][];
  /** Present when the replay takes a gapless number: its waves up to `throughWave` take turns under `key`. */
  numberTurn?: NumberTurn;
}

export interface NumberTurn {
  /** The captured (not renamed) counter's key: one account's replays take turns, as its requests do. */
  key: string;
  throughWave: number;
}

const NUMBER_COUNTER_SORT_KEYS = new Set(
  (['invoice', 'credit_note'] satisfies DocumentKind[]).map((kind) => keys.documentCounter(0, kind).SK),
);

/**
 * Where a replay must take its turn (pure; unit-tested): a request whose transaction advances a gapless number's
 * counter (shared/store/document-numbers.ts) runs its read and its transaction one at a time per account in the
 * runtime (shared/services/one-at-a-time.ts), because concurrent creations would only conflict on the counter and
 * decide again. That wait is the DynamoDB work gapless numbers need, so the floor's replays of one account wait the
 * same way, from their first wave through the transaction's (a read after the commit, outside the turn, does not).
 */
export function numberTurn(calls: readonly CapturedCall[], waves: readonly number[][]): NumberTurn | undefined {
  for (const [w, wave] of waves.entries())
    for (const k of wave) {
      const call = calls[k]!;
      if (call.command !== 'TransactWriteItemsCommand') continue;
      for (const action of call.input.TransactItems as Input[]) {
        const key = action.Update?.Key as Input | undefined;
        if (key && NUMBER_COUNTER_SORT_KEYS.has(String(key.SK)))
          return { key: `${String(key.PK)}|${String(key.SK)}`, throughWave: w };
      }
    }
  return undefined;
}

/**
 * Groups captured calls (indices) into waves that reproduce the request's own concurrency: sorted by start, a
 * call joins the current wave if it was sent before any call of that wave was answered (so it cannot have
 * depended on one); otherwise it starts the next wave. Calls without timing are sent one after another.
 * Example: a history page's Query, then its two BatchGetItem calls sent together → [[Query], [Batch, Batch]].
 */
export function replayWaves(calls: readonly Pick<CapturedCall, 'startMs' | 'endMs'>[]): number[][] {
  const order = calls.map((_, i) => i);
  if (calls.every((c) => c.startMs !== undefined && c.endMs !== undefined))
    order.sort((a, b) => calls[a]!.startMs! - calls[b]!.startMs!);
  const waves: number[][] = [];
  let firstAnswer = Number.NEGATIVE_INFINITY;
  for (const i of order) {
    const { startMs, endMs } = calls[i]!;
    if (waves.length > 0 && startMs !== undefined && startMs < firstAnswer) {
      waves[waves.length - 1]!.push(i);
      firstAnswer = Math.min(firstAnswer, endMs ?? Number.POSITIVE_INFINITY);
    } else {
      waves.push([i]);
      firstAnswer = startMs === undefined ? Number.NEGATIVE_INFINITY : (endMs ?? Number.POSITIVE_INFINITY);
    }
  }
  return waves;
}

/** Seeds the pre-state of `count` replays and returns them ready to run (not timed). */
export async function prepareReplays(
  client: DynamoDBDocumentClient,
  template: ReplayTemplate,
  count: number,
  tagPrefix: string,
): Promise<PreparedReplay[]> {
  const replays: PreparedReplay[] = [];
  const seed: { table: string; item: Input }[] = [];
  const waves = replayWaves(template.calls);
  const turn = numberTurn(template.calls, waves);
  for (let i = 0; i < count; i++) {
    if (!template.write) {
      replays.push({
        waves: waves.map((wave) =>
          wave.map((k) => ({ command: template.calls[k]!.command, input: structuredClone(template.calls[k]!.input) })),
        ),
      });
      continue;
    }
    const tag = `${tagPrefix}${i}`;
    seed.push(...preStateItems(template.calls, tag));
    replays.push({
      waves: waves.map((wave) =>
        wave.map((k) => ({
          command: template.calls[k]!.command,
          input: freshenInput(template.calls[k]!.command, template.calls[k]!.input, tag),
        })),
      ),
      ...(turn ? { numberTurn: turn } : {}),
    });
  }
  await batchWriteAll(client, seed, 4);
  return replays;
}

/** Runs one prepared replay, in its number's turn if it takes one; resolves to its wall time in ms (throws if any call fails). */
export async function runReplay(client: DynamoDBDocumentClient, replay: PreparedReplay): Promise<number> {
  const started = performance.now();
  const turn = replay.numberTurn;
  const inTurn = turn ? turn.throughWave + 1 : 0;
  if (turn) await oneAtATime(turn.key, () => sendWaves(client, replay.waves.slice(0, inTurn)));
  await sendWaves(client, replay.waves.slice(inTurn));
  return performance.now() - started;
}

async function sendWaves(client: DynamoDBDocumentClient, waves: PreparedReplay['waves']): Promise<void> {
  for (const wave of waves) {
    await Promise.all(
      wave.map((step) => {
        const Command = COMMANDS[step.command];
        if (!Command) throw new Error(`no replay for ${step.command}`);
        return client.send(new Command(step.input));
      }),
    );
  }
}

/** BatchWriteItem in chunks of 25 with `parallel` batches in flight, retrying unprocessed items. */
export async function batchWriteAll(
  client: DynamoDBDocumentClient,
  items: readonly { table: string; item: Input }[],
  parallel: number,
): Promise<void> {
  const chunks: { table: string; item: Input }[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  let next = 0;
  async function worker() {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      let requestItems: Record<string, Input[]> = {};
      for (const { table, item } of chunk) (requestItems[table] ??= []).push({ PutRequest: { Item: item } });
      for (let round = 0; Object.keys(requestItems).length > 0; round++) {
        if (round > 10) throw new Error('BatchWriteItem left items unprocessed');
        const result = await client.send(new BatchWriteCommand({ RequestItems: requestItems }));
        requestItems = (result.UnprocessedItems ?? {}) as Record<string, Input[]>;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
}
