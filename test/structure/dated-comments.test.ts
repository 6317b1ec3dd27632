/**
 * Code comments say why, not when (CONTRIBUTING.md "Upkeep"): no issue numbers, calendar dates or numbered "rounds"
 * of work in the comments of functions/, shared/, infra/, bench/ and scripts/. A reader cannot open an issue number or
 * a dated round, and the reason they stood for is what the comment has to say; the history stays in git. Dates in
 * code (a fixture's timestamp) are not comments and are left alone, and so is a date to come that a comment sets as a
 * `Removal date:` (a data migration's: docs/operations.md "Retiring a migration").
 */
import { describe, expect, it } from 'vitest';
import { commentsOnly, type SourceText } from './boundary-rules.ts';
import { readSource, sourceFiles } from './source-files.ts';

const CHECKED = ['functions', 'shared', 'infra', 'bench', 'scripts'].flatMap(sourceFiles).map(readSource);

const ORDINALS =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth';

/** An issue number, a calendar date (but a removal date), or a numbered round of work. */
const DATED = new RegExp(
  [
    String.raw`\bissues? #?\d+`,
    String.raw`(?<!Removal date: )\b20\d\d-\d\d-\d\d\b`,
    String.raw`\b(${ORDINALS}|\d+(st|nd|rd|th)) rounds?\b`,
  ].join('|'),
  'i',
);

/** Each comment line of `files` that dates itself, as `file:line text`. */
function datedComments(files: readonly SourceText[]): string[] {
  return files.flatMap((file) =>
    commentsOnly(file.text)
      .split('\n')
      .flatMap((line, index) => (DATED.test(line) ? [`${file.path}:${index + 1} ${line.trim()}`] : [])),
  );
}

describe('comments say why, not when', () => {
  it('reads the comments it checks', () => {
    // Guards the reader: one that found no comment would pass every file.
    const lines = CHECKED.flatMap((file) => commentsOnly(file.text).split('\n')).filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(1000);
    expect(lines.every((line) => /^\s*(\/\/|\/\*|\*)/.test(line))).toBe(true);
  });

  it('no issue number, date or numbered round in a comment of functions/, shared/, infra/, bench/ or scripts/', () => {
    const found = datedComments(CHECKED);
    expect(found, found.join('\n')).toEqual([]);
  });

  it('finds each kind when planted, and leaves code, words and fixtures alone (the check itself works)', () => {
    const text = [
      '/** Budget restated in the tenth round. */',
      "const createdAt = '2030-11-30 10:00:00'; // a fixture's time",
      '// Until issue 29 the transaction had 5 items.',
      '/*',
      ' * Measured on 2026-11-27 (docs/performance.md).',
      ' */',
      'const rounds = 3; // three rounds of retries, each waiting longer',
      '// Budgets met again in the 2nd round.',
      "const label = 'issue 27'; // the invoice's issue day",
      '/**',
      ' * Removal date: 2026-12-31, once every table has run it.',
      ' * Removed on 2026-12-31.',
      ' */',
    ].join('\n');
    expect(datedComments([{ path: 'x.ts', text }])).toEqual([
      'x.ts:1 /** Budget restated in the tenth round. */',
      'x.ts:3 // Until issue 29 the transaction had 5 items.',
      'x.ts:5 * Measured on 2026-11-27 (docs/performance.md).',
      'x.ts:8 // Budgets met again in the 2nd round.',
      'x.ts:12 * Removed on 2026-12-31.',
    ]);
  });
});
