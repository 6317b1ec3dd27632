/**
 * The local runtime's durability barrier (docs/guarantees.md "The durability barrier of the local runtime").
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

/**
 * The barrier read failed after DynamoDB Local acknowledged the transaction: it committed, durably or not yet.
 * A distinct error so that the store treats the outcome as unknown (resend with the token, or 504) — never as
 * "not written", which the read's own error (e.g. a deadline too close to start it) would otherwise suggest.
 */
export class DurabilityUnconfirmedError extends Error {
  constructor(cause: unknown) {
    super('The transaction was acknowledged but its durability could not be confirmed', { cause });
    this.name = 'DurabilityUnconfirmedError';
  }
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
