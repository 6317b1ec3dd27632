/** `data:migrate` (docs/operations.md "Upgrading"): one-off data migrations after an upgrade. */
import { migrateListings } from '../../shared/store/listing-migration.ts';
import { countLegacyPayments } from '../../shared/store/totals-migration.ts';
import { defineCommand } from './command.ts';

export const dataMigrate = defineCommand({
  name: 'data:migrate',
  summary:
    'one-off, after an upgrade: list invoices and clients written before the invoice and client routes, and count ' +
    'payments recorded before period totals in them (idempotent)',
  options: {},
  prints:
    'one JSON line {"invoices":N,"clients":N,"overdue_indexed":N,"changed_meanwhile":N,"payments_counted":N}: invoices ' +
    'and clients migrated, open invoices put into the overdue index, invoices a payment changed during the run (run ' +
    'again for those), and payments added to their day totals. Reads the whole table twice.',
  input: () => ({}),
  async run(_input, output) {
    const listings = await migrateListings();
    output.line({ ...listings, payments_counted: await countLegacyPayments() });
  },
});

export const dataCommands = [dataMigrate];
