/**
 * Comments and docs cite the project (CONTRIBUTING.md "Upkeep"): the specification the service was built from is not
 * in the repository, so a citation of one of its sections tells a reader nothing they can open. Cite docs/api.md sections,
 * docs/decisions.md, docs/data-design.md… instead. An issue's section ("issue 17 §6") names the tracker, and stays.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from './source-files.ts';

/** Folders and files held to the rule: the whole repository but the dependencies. */
const CHECKED = ['functions', 'shared', 'infra', 'scripts', 'bench', 'test', 'docs', 'README.md', 'CONTRIBUTING.md'];
const TEXT = /\.(ts|md|java|sh|json)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'node22', 'cdk.out']);

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  const dirents = (() => {
    try {
      return readdirSync(full, { withFileTypes: true });
    } catch {
      return null;
    }
  })();
  if (dirents === null) return [entry];
  return dirents.flatMap((d) => {
    if (d.isDirectory()) return SKIPPED_DIRS.has(d.name) ? [] : files(path.posix.join(entry, d.name));
    return TEXT.test(d.name) ? [path.posix.join(entry, d.name)] : [];
  });
}

/** Citations of the specification in one file's text, as `file:line text`. */
function specCitations(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const bySpec = /\bSPEC\b/.test(line);
    const bySection = [...line.matchAll(/§\s*\d+/g)].some((m) => !/issue \d+ $/i.test(line.slice(0, m.index)));
    return bySpec || bySection ? [`${file}:${i + 1} ${line.trim()}`] : [];
  });
}

/** Spelled in two parts, so that a search of the repository for such a citation finds none here either. */
const PLANTED_CITATION = ['SPEC', '§14'].join(' ');

describe('comments and docs cite the project', () => {
  it('no citation of the specification (or a bare section number) anywhere in the repository', () => {
    const self = path.posix.relative(ROOT, fileURLToPath(import.meta.url));
    const found = CHECKED.flatMap(files)
      .filter((file) => file !== self)
      .flatMap((file) => specCitations(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(found, found.join('\n')).toEqual([]);
  });

  it('finds a planted citation, and leaves an issue section alone (the check itself works)', () => {
    const text = [
      `/** The overdue sweep (${PLANTED_CITATION}). */`,
      '// written before the §13 routes',
      '/** Issue 17 §6: one engine per DATA_DIR. */',
      '// the docs/api.md "Overdue" rule',
    ].join('\n');
    expect(specCitations('x.ts', text)).toEqual([
      `x.ts:1 /** The overdue sweep (${PLANTED_CITATION}). */`,
      'x.ts:2 // written before the §13 routes',
    ]);
  });
});
