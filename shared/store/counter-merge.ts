/**
 * Counter updates of one item in one transaction, merged (docs/decisions.md "Bank transfers: eight invoices per
 * transaction, credit in its own items"): a transaction may not touch an item twice, and the payments of several
 * invoices in one transaction add to the same aging rows and day totals.
 */
import { keyId } from './batch.ts';
import type { TransactItem } from './write-executor.ts';

/** The `ADD` clause's value placeholders of an update expression (`ADD #a :x, #b :y` → `:x`, `:y`). */
function addedPlaceholders(expression: string): string[] {
  const clause = /\bADD\s+(.*?)(?=\s+(?:SET|REMOVE|DELETE)\s|$)/.exec(expression)?.[1] ?? '';
  return clause.split(',').flatMap((part) => part.trim().split(/\s+/).slice(1, 2));
}

type UpdateAction = NonNullable<TransactItem['Update']>;

/** The two counter updates of one item as one, their ADDs summed; undefined when they are not both plain counters. */
function mergedCounter(first: UpdateAction, second: UpdateAction): UpdateAction | undefined {
  if (first.ConditionExpression || second.ConditionExpression) return undefined;
  if (first.UpdateExpression !== second.UpdateExpression) return undefined;
  if (JSON.stringify(first.ExpressionAttributeNames) !== JSON.stringify(second.ExpressionAttributeNames))
    return undefined;
  const added = new Set(addedPlaceholders(first.UpdateExpression ?? ''));
  const values: Record<string, unknown> = { ...first.ExpressionAttributeValues };
  for (const [name, value] of Object.entries(second.ExpressionAttributeValues ?? {})) {
    const mine = values[name];
    if (added.has(name) && typeof mine === 'number' && typeof value === 'number') values[name] = mine + value;
    else if (JSON.stringify(mine) !== JSON.stringify(value)) return undefined;
  }
  return { ...first, ExpressionAttributeValues: values };
}

/**
 * One transaction's actions with the unconditional counter updates of one item merged into one, their ADDs summed:
 * a transaction may not touch an item twice, and the payments of several invoices in one transaction add to the same
 * day's totals and aging rows. Any other item touched twice is left as it is, so DynamoDB refuses the transaction (a
 * bug in the plan, never a race).
 */
export function mergeCounterUpdates(actions: readonly TransactItem[]): TransactItem[] {
  const merged: TransactItem[] = [];
  const counterAt = new Map<string, number>();
  for (const action of actions) {
    const update = action.Update;
    const id = update ? `${update.TableName}\u0000${keyId(update.Key ?? {})}` : undefined;
    const at = id === undefined ? undefined : counterAt.get(id);
    const combined = at === undefined || !update ? undefined : mergedCounter(merged[at]!.Update!, update);
    if (at !== undefined && combined) {
      merged[at] = { Update: combined };
      continue;
    }
    if (id !== undefined && at === undefined) counterAt.set(id, merged.length);
    merged.push(action);
  }
  return merged;
}
