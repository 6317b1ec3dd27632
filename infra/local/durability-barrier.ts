/**
 * The local runtime's durability barrier (SPEC §10, docs/guarantees.md "The durability barrier").
 *
 * DynamoDB Local acknowledges a TransactWriteItems a few milliseconds before the transaction is on disk: a
 * SIGKILL in that window rolls the acknowledged transaction back whole. A strongly consistent GetItem of
 * one item the transaction wrote is answered only once the transaction is durable, so the barrier sends
 * one after every successful transaction and lets the answer go only then. A barrier read that fails
 * fails the call: the store then resends the transaction with the same ClientRequestToken (idempotent),
 * or answers 504 — never 201 for a write it could not see. Deployed, DynamoDB acknowledges only durable
 * writes: the barrier is installed by the local runtime and the CLI only, never in Lambda.
 */
import {
  type AttributeValue,
  GetItemCommand,
  type TransactWriteItem,
  type TransactWriteItemsCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../../shared/store/table.ts';

const BARRIER_NAME = 'localDurabilityBarrier';

export interface WrittenKey {
  tableName: string;
  key: Record<string, AttributeValue>;
}

/** The key of one item a transaction puts, updates or deletes (condition checks write nothing). */
export function writtenKey(input: TransactWriteItemsCommandInput): WrittenKey | undefined {
  for (const action of input.TransactItems ?? []) {
    const written = firstWrite(action);
    if (written) return written;
  }
  return undefined;
}

function firstWrite(action: TransactWriteItem): WrittenKey | undefined {
  const { partitionKey, sortKey } = TABLE;
  if (action.Put?.Item && action.Put.TableName) {
    const item = action.Put.Item;
    const key: Record<string, AttributeValue> = { [partitionKey]: item[partitionKey]! };
    if (item[sortKey]) key[sortKey] = item[sortKey];
    return { tableName: action.Put.TableName, key };
  }
  const keyed = action.Update ?? action.Delete;
  if (keyed?.Key && keyed.TableName) return { tableName: keyed.TableName, key: keyed.Key };
  return undefined;
}

/** Installs the barrier on a client's middleware stack (idempotent: installing twice replaces it). */
export function installDurabilityBarrier(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName !== 'TransactWriteItemsCommand') return result;
      const written = writtenKey(args.input as TransactWriteItemsCommandInput);
      if (written) {
        await client.send(new GetItemCommand({ TableName: written.tableName, Key: written.key, ConsistentRead: true }));
      }
      return result;
    },
    // The build step sees the marshalled input (the document client marshals during initialize).
    { step: 'build', priority: 'low', name: BARRIER_NAME, override: true },
  );
}
