/**
 * The order in which vitest hands files to its workers (vitest.config.ts): the longest first, so that no long
 * file starts last and runs alone while the other workers idle. Durations come from vitest's results cache (the
 * previous run on this machine); a file without one — every file of a fresh clone — is estimated: files in the
 * folders that start processes (DynamoDB Local, Chromium, a CDK synth) are taken to be long, and those that start
 * `npm start` (each start costs seconds of CPU, and they restart it) or run the bundles on Node 22 (whose first run
 * installs it) longest.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const PROCESS_FOLDERS = ['test/robustness/', 'test/local/', 'test/infra/', 'test/docs/'];
/** What the longest files use: `npm start` (restarted), and the bundles run on Node 22 (installed by their first run). */
const LONGEST_MARKS = ['NpmStartHarness', 'node22Binary'];

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const duration = new Map(files.map((file) => [file, this.expectedDuration(file)]));
    return [...files].sort((a, b) => duration.get(b)! - duration.get(a)!);
  }

  private expectedDuration(file: TestSpecification): number {
    const path = relative(this.ctx.config.root, file.moduleId);
    const key = `${file.project.name}:${path}`;
    const measured = this.ctx.cache.getFileTestResults(key)?.duration;
    if (measured !== undefined) return measured;
    const size = this.ctx.cache.getFileStats(key)?.size ?? 0;
    const source = readFileSync(file.moduleId, 'utf8');
    if (LONGEST_MARKS.some((mark) => source.includes(mark))) return 60_000 + size / 10;
    return (PROCESS_FOLDERS.some((folder) => path.startsWith(folder)) ? 30_000 : 0) + size / 10;
  }
}
