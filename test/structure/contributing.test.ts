/**
 * CONTRIBUTING.md stays true of the tree and short enough to stay true (CONTRIBUTING.md "Upkeep"): every folder and
 * file it names in code spans exists, and it, docs/performance.md and docs/webhooks.md keep within their lengths —
 * the guide is a map of folders, and the references describe what is, not how it came to be (the history is in git).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './source-files.ts';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The repository paths a text names in code spans: a folder (`test/unit/`) or a file (`shared/routes.ts`). */
function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\s]+)`/g)].map(([, span]) => span!);
  const isPath = (span: string) =>
    /^(functions|shared|infra|bench|scripts|test|docs)\//.test(span) && !/[<>*{}]/.test(span);
  return [...new Set(spans.filter(isPath))];
}

/** The named paths that do not exist under `root`. */
function missingPaths(text: string, exists: (relative: string) => boolean): string[] {
  return namedPaths(text).filter((relative) => !exists(relative));
}

const LENGTH_LIMITS: Record<string, number> = {
  'CONTRIBUTING.md': 200,
  'docs/performance.md': 400,
  'docs/webhooks.md': 400,
};

describe('CONTRIBUTING.md', () => {
  it('names only folders and files that exist', () => {
    const missing = missingPaths(read('CONTRIBUTING.md'), (relative) => existsSync(path.join(ROOT, relative)));
    expect(missing).toEqual([]);
  });

  it('names folders (its map) and finds a planted folder that is gone', () => {
    const named = namedPaths(read('CONTRIBUTING.md'));
    for (const folder of ['functions/', 'shared/domain/', 'shared/store/', 'infra/local/', 'test/support/'])
      expect(named).toContain(folder);
    const planted = 'the map names `shared/gone-folder/` and `shared/routes.ts`';
    expect(missingPaths(planted, (relative) => existsSync(path.join(ROOT, relative)))).toEqual(['shared/gone-folder/']);
  });

  it.each(Object.entries(LENGTH_LIMITS))('%s is at most %i lines', (file, limit) => {
    expect(read(file).split('\n').length).toBeLessThanOrEqual(limit);
  });
});
