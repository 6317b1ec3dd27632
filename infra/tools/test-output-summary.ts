/**
 * What `npm test` (scripts/test.ts) prints of a part when every part has ended. CI shows only the end of the output,
 * so a failed vitest pass's failures are printed there again.
 */
import { stripVTControlCharacters } from 'node:util';

/** At most this many lines of a failed pass's failure report are repeated. */
export const FAILURE_EXCERPT_LINES = 150;

/** vitest's headings before its failure report: "⎯⎯⎯ Failed Tests 2 ⎯⎯⎯", "⎯⎯⎯ Unhandled Errors ⎯⎯⎯". */
const FAILURE_REPORT_HEADING = /⎯ (Failed Tests|Failed Suites|Unhandled Errors?)( \d+)? ⎯/;
/** vitest's lines naming a failed file or test: " FAIL  file > test", " ❯ file (3 tests | 1 failed)", " × test". */
const FAILED_LINE = /^\s*(FAIL|❯|×)\s/;

/**
 * A passed part's last lines (its summary). A failed part's failures: for vitest's output, its failure report (at
 * most FAILURE_EXCERPT_LINES), then the lines naming the failed files and tests, last, so that even a short excerpt
 * of the end names them; for any other output, all of it.
 */
export function testOutputSummary(code: number, output: string): string[] {
  const lines = output.trimEnd().split('\n');
  if (code === 0) return lines.slice(-6);
  const plain = lines.map(stripVTControlCharacters);
  const failureReport = plain.findIndex((line) => FAILURE_REPORT_HEADING.test(line));
  if (failureReport < 0) return lines;
  const failedLines = plain.slice(0, failureReport).filter((line) => FAILED_LINE.test(line));
  return [...plain.slice(failureReport, failureReport + FAILURE_EXCERPT_LINES), '', 'Failed:', ...failedLines];
}
