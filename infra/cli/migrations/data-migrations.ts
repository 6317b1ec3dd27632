/**
 * The steps of `data:migrate` (docs/operations.md "Upgrading"), in the order they run: each backfills what one upgrade
 * added to the data model into items written before it. Each step is idempotent and safe while the API serves, prints
 * its counts as fields of the command's one JSON line, and states in its file when it may be removed.
 *
 * To add a step: write `infra/cli/migrations/<name>.ts` exporting a `DataMigration` (./migration-step.ts), append it
 * to DATA_MIGRATIONS, and add its fields to docs/operations.md (test/local/cli.test.ts runs the command on an empty
 * table and on legacy items). A step's field names must not repeat another's: the line is their union.
 */
import { agingMigration } from './aging.ts';
import { creditListingMigration } from './credit-listing.ts';
import { hostedLinksMigration } from './hosted-links.ts';
import { listingsMigration } from './listings.ts';
import type { DataMigration } from './migration-step.ts';
import { paymentTotalsMigration } from './payment-totals.ts';

export const DATA_MIGRATIONS: readonly DataMigration[] = [
  listingsMigration,
  paymentTotalsMigration,
  hostedLinksMigration,
  agingMigration,
  creditListingMigration,
];
