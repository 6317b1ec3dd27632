/** Every route of the route table is measured by the bench, by a row or a phase that exists (no timing assertions). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTE_COVERAGE } from '../../bench/coverage.ts';
import { endpointDefs } from '../../bench/endpoint-defs.ts';
import type { Seeded } from '../../bench/seeding.ts';
import { ROUTES } from '../../shared/routes.ts';

const PHASES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/phases');

const seeded = {
  wInvoices: ['R'],
  wClients: [1],
  reversalPool: [[1]],
  payerInvoices: [],
  soloInvoices: [],
  deletable: { invoices: ['R'], clients: [1] },
} as unknown as Seeded;
const rowNames = endpointDefs({ history: 'h', writer: 'w' }, seeded).map((row) => row.name);

describe('bench coverage of the routes', () => {
  it('names every route of the route table', () => {
    expect(Object.keys(ROUTE_COVERAGE).sort()).toEqual(ROUTES.map((route) => route.name).sort());
  });

  it.each(Object.entries(ROUTE_COVERAGE))('%s: its rows and phases exist, or it says why it has none', (_, c) => {
    for (const row of c.rows ?? []) expect(rowNames).toContain(row);
    for (const phase of c.phases ?? []) expect(existsSync(path.join(PHASES, `${phase}.ts`))).toBe(true);
    expect((c.rows?.length ?? 0) + (c.phases?.length ?? 0) > 0 || (c.note?.length ?? 0) > 0).toBe(true);
  });
});
