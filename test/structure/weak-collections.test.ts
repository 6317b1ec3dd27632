/**
 * No side table of a request's objects in the runtime code (CONTRIBUTING.md "Layers"): V8's young-generation
 * collections keep what a long-lived WeakMap entry's value, a WeakRef's target or a FinalizationRegistry's
 * registered object holds, whatever became of the key, until the next full collection. A module-level WeakMap keyed
 * by each response, with the response's outcome as its value, kept every success's data alive that long
 * (docs/performance.md "What the method has to get right"). Each one that remains is listed here with what it holds.
 */
import { describe, expect, it } from 'vitest';
import { withoutComments } from './boundary-rules.ts';
import { readSource, runtimeSources } from './source-files.ts';

/**
 * The weak collections allowed: each file with its line, exactly (so that a change of what it holds is looked at
 * again), and why what it holds is harmless.
 */
const ALLOWED: Record<string, string> = {
  // A failure's error code (a string) beside its response, for the request log.
  'shared/http/envelope.ts': 'const errorCodes = new WeakMap<HttpResponse, string>();',
};

const WEAK = /\bnew\s+(WeakMap|WeakRef|FinalizationRegistry)\b/;

/** Each weak collection made in `text` (its comments aside) but the allowed one, as `file:line text`. */
function weakCollections(file: string, text: string): string[] {
  return withoutComments(text)
    .split('\n')
    .flatMap((line, i) =>
      WEAK.test(line) && line.trim() !== ALLOWED[file] ? [`${file}:${i + 1} ${line.trim()}`] : [],
    );
}

describe('no side table of request objects in the runtime code', () => {
  it('makes no WeakMap, WeakRef or FinalizationRegistry but the listed ones', () => {
    const found = runtimeSources().flatMap((file) => weakCollections(file.path, file.text));
    expect(found, found.join('\n')).toEqual([]);
  });

  it('each allowed one is still there (the list holds no stale entry)', () => {
    for (const [file, line] of Object.entries(ALLOWED))
      expect(
        readSource(file)
          .text.split('\n')
          .map((l) => l.trim()),
      ).toContain(line);
  });

  it('finds a planted one, and the allowed one changed, naming the file (the check itself works)', () => {
    const text = ['const seen = new Set<string>();', 'const outcomes = new WeakMap<object, unknown>();'].join('\n');
    expect(weakCollections('shared/http/planted.ts', text)).toEqual([
      'shared/http/planted.ts:2 const outcomes = new WeakMap<object, unknown>();',
    ]);
    const widened = 'const errorCodes = new WeakMap<HttpResponse, Outcome>();';
    expect(weakCollections('shared/http/envelope.ts', widened)).toEqual([`shared/http/envelope.ts:1 ${widened}`]);
  });
});
