/**
 * Transfers into clients' virtual accounts as recorded (docs/bank-transfers.md "Exactly once"; docs/data-design.md
 * "Bank transfers"): one item per Paystack reference, put by the first step of its recording on condition that it is
 * new, and advanced by each later step on condition of the step it read. A transfer that settles more invoices than
 * one transaction holds is recorded in steps; each step's transaction carries its payments and the item's advance, so
 * a crash between steps leaves the item saying how far it got, and processing the event again goes on from there.
 */

import { itemOf } from './batch.ts';
import type { Item } from './items.ts';
import { type Key, keys } from './keys.ts';
import type { TransactItem } from './write-executor.ts';

export interface TransferRecord {
  companyId: number;
  reference: string;
  clientId: number;
  amountKobo: number;
  /** What the steps so far gave invoices and credit. */
  allocatedKobo: number;
  /** Steps committed (1 after the first). */
  step: number;
  /** The ids of the payments recorded, in order. */
  paymentIds: number[];
  creditKobo: number;
  done: boolean;
}

export const transferKey = (companyId: number, reference: string): Key => keys.transfer(companyId, reference);

export function transferFrom(items: Map<string, Item>, companyId: number, reference: string) {
  const item = itemOf(items, transferKey(companyId, reference));
  if (!item) return undefined;
  return {
    companyId,
    reference,
    clientId: Number(item.client_id),
    amountKobo: Number(item.amount),
    allocatedKobo: Number(item.allocated),
    step: Number(item.step),
    paymentIds: Array.isArray(item.payment_ids) ? item.payment_ids.map(Number) : [],
    creditKobo: Number(item.credit ?? 0),
    done: item.done === true,
  } satisfies TransferRecord;
}

/** The item after a step: put new by the first, rewritten on condition of the step read by the others. */
export function transferStepAction(
  table: string,
  before: TransferRecord | undefined,
  after: TransferRecord,
): TransactItem {
  const item: Item = {
    ...transferKey(after.companyId, after.reference),
    entity: 'transfer',
    company_id: after.companyId,
    reference: after.reference,
    client_id: after.clientId,
    amount: after.amountKobo,
    allocated: after.allocatedKobo,
    step: after.step,
    payment_ids: after.paymentIds,
    credit: after.creditKobo,
    done: after.done,
    updated_at: new Date().toISOString(),
  };
  const condition = before
    ? { ConditionExpression: 'step = :step', ExpressionAttributeValues: { ':step': before.step } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
  return { Put: { TableName: table, Item: item, ...condition } };
}
