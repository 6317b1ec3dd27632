/**
 * The endpoints measured against their floor: one entry per row of the report. A row such as "add payment (with
 * events)" is one more entry whose `make` pays with an account that has a webhook endpoint set: the floor replays
 * whatever DynamoDB requests the captured request made (an outbox write included), so the row shows what events
 * cost beyond the floor.
 */
import type { CaptureFigures } from './capture.ts';
import type { Seeded } from './context.ts';
import { clientIdInvoice, history, type MakeRequest, newClientInvoice, payment } from './requests.ts';
import * as stats from './stats.ts';

export interface EndpointDef {
  name: string;
  make: MakeRequest;
  expected: number;
  /** Our CPU per request (runtime minus floor, concurrency 1), ms. */
  cpuBudgetMs: number;
  roundTripBudget: (captured: CaptureFigures) => number;
  wcuBudget?: number;
}

export const endpointDefs = (keys: { history: string; writer: string }, seeded: Seeded): EndpointDef[] => [
  {
    name: 'add invoice (new client)',
    make: () => newClientInvoice(keys.writer),
    expected: 201,
    cpuBudgetMs: 2,
    roundTripBudget: () => 2,
  },
  {
    name: 'add invoice (client_id)',
    make: () => clientIdInvoice(keys.writer, seeded.wClientId),
    expected: 201,
    cpuBudgetMs: 2,
    roundTripBudget: () => 2,
  },
  {
    name: 'add payment',
    make: (_i, worker) => payment(keys.writer, seeded.wInvoices[worker % seeded.wInvoices.length]!, seeded.payDate),
    expected: 201,
    cpuBudgetMs: 2,
    roundTripBudget: () => 2,
    wcuBudget: 8,
  },
  {
    name: 'history page of 100',
    make: () => history(keys.history),
    expected: 200,
    cpuBudgetMs: 5,
    roundTripBudget: (c) => stats.historyRoundTripBudget(c.keysRead),
  },
];
