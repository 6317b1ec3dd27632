/** `data:migrate` (docs/operations.md "Upgrading"): one-off data migrations after an upgrade. */
import { migrateListings } from '../../shared/store/listing-migration.ts';
import { defineCommand } from './command.ts';

export const dataMigrate = defineCommand({
  name: 'data:migrate',
  summary:
    'one-off, after upgrading to the invoice and client routes: list invoices and clients written before them (idempotent)',
  options: {},
  prints:
    'one JSON line {"invoices":N,"clients":N,"overdue_indexed":N,"changed_meanwhile":N}: invoices and clients migrated, ' +
    'open invoices put into the overdue index, and invoices a payment changed during the run (run again for those). ' +
    'Reads the whole table once.',
  input: () => ({}),
  async run(_input, output) {
    output.line(await migrateListings());
  },
});

export const dataCommands = [dataMigrate];
