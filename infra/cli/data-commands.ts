/** `data:migrate` (docs/operations.md "Upgrading"): the one-off data migrations after an upgrade, in order. */
import { defineCommand } from './command.ts';
import { DATA_MIGRATIONS } from './migrations/data-migrations.ts';

export const dataMigrate = defineCommand({
  name: 'data:migrate',
  summary: `one-off, after an upgrade (idempotent): ${DATA_MIGRATIONS.map((step) => step.summary).join('; ')}`,
  options: {},
  prints: `one JSON line with ${DATA_MIGRATIONS.map((step) => step.prints).join(', ')}. Reads the whole table once per step.`,
  input: () => ({}),
  async run(_input, output) {
    let line: Record<string, number> = {};
    for (const step of DATA_MIGRATIONS) line = { ...line, ...(await step.run()) };
    output.line(line);
  },
});

export const dataCommands = [dataMigrate];
