/** `data:migrate` (docs/operations.md "Upgrading"): one-off data migrations after an upgrade. */
import { countLegacyInvoices } from '../../shared/store/aging-migration.ts';
import { migrateListings } from '../../shared/store/listing-migration.ts';
import { countLegacyPayments } from '../../shared/store/totals-migration.ts';
import { defineCommand } from './command.ts';

export const dataMigrate = defineCommand({
  name: 'data:migrate',
  summary:
    'one-off, after an upgrade: list invoices and clients written before the invoice and client routes, count ' +
    'payments recorded before period totals in them, and invoices written before aging in the aging rows and client ' +
    'ledgers (idempotent)',
  options: {},
  prints:
    'one JSON line {"invoices":N,"clients":N,"overdue_indexed":N,"changed_meanwhile":N,"payments_counted":N,' +
    '"aging_counted":N,"aging_changed_meanwhile":N}: invoices and clients migrated, open invoices put into the overdue ' +
    'index, invoices a payment changed during the run (run again for those), payments added to their day totals, and ' +
    'invoices counted in aging and statements (and those changed meanwhile). Reads the whole table three times.',
  input: () => ({}),
  async run(_input, output) {
    const listings = await migrateListings();
    const paymentsCounted = await countLegacyPayments();
    output.line({ ...listings, payments_counted: paymentsCounted, ...(await countLegacyInvoices()) });
  },
});

export const dataCommands = [dataMigrate];
