/**
 * Every step of `data:migrate` has a removal date (docs/operations.md "Retiring a migration"): its file's header names
 * it (`Removal date: YYYY-MM-DD`) and the runbook's table gives the same date, so a finished migration cannot stay
 * without one, and the two places cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_MIGRATIONS } from '../../infra/cli/migrations/data-migrations.ts';
import { ROOT } from './source-files.ts';

const REMOVAL_DATE = /^ \* Removal date: (\d{4}-\d\d-\d\d)\b/m;

/** The removal date of each step in the runbook's table (`| \`name\` | … | YYYY-MM-DD | … |`). */
function runbookDates(runbook: string): Map<string, string> {
  const dates = new Map<string, string>();
  for (const [, name, date] of runbook.matchAll(/^\| `([a-z-]+)` \|[^|\n]*\| (\d{4}-\d\d-\d\d) \|/gm))
    dates.set(name!, date!);
  return dates;
}

describe('data migrations are dated', () => {
  const runbook = runbookDates(readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8'));

  it.each(DATA_MIGRATIONS.map((step) => [step.name] as const))(
    '%s names its removal date in its header, and the runbook the same one',
    (name) => {
      const source = readFileSync(path.join(ROOT, 'infra/cli/migrations', `${name}.ts`), 'utf8');
      const date = REMOVAL_DATE.exec(source)?.[1];
      expect(date, `infra/cli/migrations/${name}.ts has no "Removal date: YYYY-MM-DD" line`).toBeDefined();
      expect(runbook.get(name), `docs/operations.md "Retiring a migration" has no row for ${name}`).toBe(date);
    },
  );

  it('the runbook dates no step that data:migrate no longer runs', () => {
    expect([...runbook.keys()].sort()).toEqual(DATA_MIGRATIONS.map((step) => step.name).sort());
  });
});
