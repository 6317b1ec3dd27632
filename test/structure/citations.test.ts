/**
 * Comments cite the project (CONTRIBUTING.md "Upkeep"): the runtime code names docs/api.md sections, docs/decisions.md
 * and the other guides, never a section of a document the repository does not contain ("SPEC §").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** Lines citing an outside document's section: `SPEC §14`, `§13`. */
const OUTSIDE_CITATION = /\bSPEC\b|§/;

const citations = (file: string, text: string) =>
  text
    .split('\n')
    .flatMap((line, index) => (OUTSIDE_CITATION.test(line) ? [`${file}:${index + 1} ${line.trim()}`] : []));

describe('comments of the runtime code cite the project', () => {
  it('no "SPEC §" (or any §) in functions/ and shared/', () => {
    const files = [...sourceFiles('functions'), ...sourceFiles('shared')];
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) => citations(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(found, found.join('\n')).toEqual([]);
  });

  it('finds a planted citation, naming the file', () => {
    expect(citations('shared/x.ts', 'const a = 1;\n/** Overdue (SPEC §14). */')).toEqual([
      'shared/x.ts:2 /** Overdue (SPEC §14). */',
    ]);
  });
});
