/**
 * The floor: the exact DynamoDB requests an endpoint made (captured by bench/server-child.ts), replayed
 * directly with the same document client construction (shared/store/client.ts) against the same
 * DynamoDB Local, so that "endpoint ÷ replay" is what our code and the HTTP hop add.
 *
 * Writes cannot be replayed verbatim (their conditions would fail the second time), so each replay of a
 * write request gets fresh keys: every partition key value in the captured requests is renamed
 * consistently (`<PK>~<tag>`), and before the timed phase the items the original request read (its
 * BatchGetItem/GetItem results: sequences, invoice header/body, client…) are written under the renamed
 * keys with BatchWriteItem. Each replay therefore reads the same items, and its transaction meets the same
 * conditions against the same state (sequence value, invoice version, absent idempotency record), with
 * items of the same shape (a few bytes longer keys). Read-only requests (history) are replayed verbatim.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { CapturedCall } from './server-child.ts';

type Input = Record<string, any>;

const COMMANDS: Record<string, new (input: any) => any> = {
  BatchGetItemCommand: BatchGetCommand,
  GetItemCommand: GetCommand,
  QueryCommand,
  TransactWriteItemsCommand: TransactWriteCommand,
  PutItemCommand: PutCommand,
  UpdateItemCommand: UpdateCommand,
};

export const isWriteRequest = (calls: readonly CapturedCall[]): boolean =>
  calls.some((c) => ['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'BatchWriteItemCommand'].includes(c.command));

const renameKey = (key: Input, tag: string): Input => ({ ...key, PK: `${String(key.PK)}~${tag}` });

/** The captured input with every primary-key PK renamed for replay `tag` (pure; used by the unit test). */
export function freshenInput(command: string, input: Input, tag: string): Input {
  const copy: Input = structuredClone(input);
  switch (command) {
    case 'BatchGetItemCommand':
      for (const request of Object.values(copy.RequestItems as Record<string, Input>)) request.Keys = request.Keys.map((k: Input) => renameKey(k, tag));
      return copy;
    case 'GetItemCommand':
    case 'UpdateItemCommand':
      copy.Key = renameKey(copy.Key, tag);
      return copy;
    case 'PutItemCommand':
      copy.Item = renameKey(copy.Item, tag);
      return copy;
    case 'TransactWriteItemsCommand':
      for (const action of copy.TransactItems as Input[]) {
        if (action.Put) action.Put.Item = renameKey(action.Put.Item, tag);
        for (const kind of ['Update', 'ConditionCheck', 'Delete']) if (action[kind]) action[kind].Key = renameKey(action[kind].Key, tag);
      }
      return copy;
    default:
      return copy;
  }
}

/** Items that must exist under the renamed keys before replay `tag` runs: what the original request read. */
export function preStateItems(calls: readonly CapturedCall[], tag: string): { table: string; item: Input }[] {
  const out: { table: string; item: Input }[] = [];
  for (const call of calls) {
    if (!call.items || call.items.length === 0) continue;
    const table =
      call.command === 'BatchGetItemCommand' ? Object.keys(call.input.RequestItems as Input)[0]! : String(call.input.TableName);
    for (const item of call.items) out.push({ table, item: renameKey(item, tag) });
  }
  return out;
}

export interface ReplayTemplate {
  calls: CapturedCall[];
  write: boolean;
}

export interface PreparedReplay {
  /** One list of inputs per replay, to send in order. */
  steps: { command: string; input: Input }[];
}

/** Seeds the pre-state of `count` replays and returns them ready to run (not timed). */
export async function prepareReplays(client: DynamoDBDocumentClient, template: ReplayTemplate, count: number, tagPrefix: string): Promise<PreparedReplay[]> {
  const replays: PreparedReplay[] = [];
  const seed: { table: string; item: Input }[] = [];
  for (let i = 0; i < count; i++) {
    if (!template.write) {
      replays.push({ steps: template.calls.map((c) => ({ command: c.command, input: structuredClone(c.input) })) });
      continue;
    }
    const tag = `${tagPrefix}${i}`;
    seed.push(...preStateItems(template.calls, tag));
    replays.push({ steps: template.calls.map((c) => ({ command: c.command, input: freshenInput(c.command, c.input, tag) })) });
  }
  await batchWriteAll(client, seed, 4);
  return replays;
}

/** Runs one prepared replay; resolves to its wall time in ms (throws if any call fails). */
export async function runReplay(client: DynamoDBDocumentClient, replay: PreparedReplay): Promise<number> {
  const started = performance.now();
  for (const step of replay.steps) {
    const Command = COMMANDS[step.command];
    if (!Command) throw new Error(`no replay for ${step.command}`);
    await client.send(new Command(step.input));
  }
  return performance.now() - started;
}

/** BatchWriteItem in chunks of 25 with `parallel` batches in flight, retrying unprocessed items. */
export async function batchWriteAll(client: DynamoDBDocumentClient, items: readonly { table: string; item: Input }[], parallel: number): Promise<void> {
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
