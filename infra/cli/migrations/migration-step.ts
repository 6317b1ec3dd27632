/**
 * One step of `data:migrate`: what each step module exports and ./data-migrations.ts lists in the order they run (a
 * module of its own, so that the steps and their list do not import each other).
 */
export interface DataMigration {
  /** Short name, unique (a step may record a `MIGRATION#<name>` marker in the table). */
  name: string;
  /** What it does, for `data:migrate --help`. */
  summary: string;
  /** The fields it adds to the printed line and what they count, for `data:migrate --help`. */
  prints: string;
  run(): Promise<Record<string, number>>;
}
