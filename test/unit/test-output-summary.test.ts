import { describe, expect, it } from 'vitest';
import { FAILURE_EXCERPT_LINES, testOutputSummary } from '../../infra/tools/test-output-summary.ts';

const PASSED_FILE = ' ✓  local  test/black-box/a.test.ts (3 tests) 812ms';
const FAILED_RUN = [
  '\x1b[32m ✓ \x1b[39m local  test/black-box/a.test.ts (3 tests) 812ms',
  ' ❯  local  test/black-box/b.test.ts (2 tests | 1 failed) 2301ms',
  '   × answers 409 to a second reversal 2210ms',
  'stdout | a log line a test printed',
  '',
  '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
  '',
  ' FAIL   local  test/black-box/b.test.ts > answers 409 to a second reversal',
  'AssertionError: expected 500 to be 409',
  '',
  ' Test Files  1 failed | 1 passed (2)',
].join('\n');

describe('testOutputSummary', () => {
  it("gives a passed part's last six lines", () => {
    // Prepare
    const output = [...Array.from({ length: 10 }, (_, n) => `line ${n}`), PASSED_FILE].join('\n');

    // Act
    const summary = testOutputSummary(0, `${output}\n\n`);

    // Assess
    expect(summary).toEqual(['line 5', 'line 6', 'line 7', 'line 8', 'line 9', PASSED_FILE]);
  });

  it("gives a failed vitest run's failure report, then its failed files and tests, without colours", () => {
    // Act
    const summary = testOutputSummary(1, FAILED_RUN);

    // Assess
    expect(summary).toEqual([
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL   local  test/black-box/b.test.ts > answers 409 to a second reversal',
      'AssertionError: expected 500 to be 409',
      '',
      ' Test Files  1 failed | 1 passed (2)',
      '',
      'Failed:',
      ' ❯  local  test/black-box/b.test.ts (2 tests | 1 failed) 2301ms',
      '   × answers 409 to a second reversal 2210ms',
    ]);
  });

  it('starts at an unhandled error report, which has no count', () => {
    // Prepare
    const output = [PASSED_FILE, '⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯', 'Error: socket hang up'].join('\n');

    // Act
    const summary = testOutputSummary(1, output);

    // Assess
    expect(summary).toEqual(['⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯', 'Error: socket hang up', '', 'Failed:']);
  });

  it(`repeats at most ${FAILURE_EXCERPT_LINES} lines of the failure report`, () => {
    // Prepare
    const report = Array.from({ length: FAILURE_EXCERPT_LINES + 50 }, (_, n) => `detail ${n}`);
    const output = ['⎯⎯⎯ Failed Tests 60 ⎯⎯⎯', ...report].join('\n');

    // Act
    const summary = testOutputSummary(1, output);

    // Assess
    expect(summary.slice(0, -2)).toHaveLength(FAILURE_EXCERPT_LINES);
    expect(summary.at(-3)).toBe(`detail ${FAILURE_EXCERPT_LINES - 2}`);
  });

  it('gives all of a failed output that is not a vitest failure report (tsc, Biome, a crash)', () => {
    // Prepare
    const output = "src/a.ts(3,1): error TS2304: Cannot find name 'x'.\nFound 1 error.";

    // Act
    const summary = testOutputSummary(2, output);

    // Assess
    expect(summary).toEqual(["src/a.ts(3,1): error TS2304: Cannot find name 'x'.", 'Found 1 error.']);
  });
});
