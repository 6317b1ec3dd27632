/**
 * A screen per function, and files that hold one concept (CONTRIBUTING.md "Layers"): no function over 50 lines and no
 * file over 500 in the runtime code (`functions/`, `shared/`), the stack, the local runtime and the CLI (`infra/`),
 * the scripts (`scripts/`) and the benchmark (`bench/`). The file cap is loose on purpose: it catches a file that
 * holds several concepts, and a concept is not split to fit it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 50;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    // infra/tools/node22/ is the Node 22 runtime npm installs there for the tests (its node_modules), not ours.
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** Functions longer than the limit in one file's text, as `file:line name (n lines)`. */
function longFunctions(file: string, text: string, limit = MAX_FUNCTION_LINES): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - start + 1;
      const name =
        node.name?.getText(source) ??
        (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
      if (lines > limit) found.push(`${file}:${start + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const CHECKED = ['functions', 'shared', 'infra', 'scripts', 'bench'].flatMap(sourceFiles);

describe('sizes of the runtime code, infra/, scripts/ and bench/', () => {
  it(`no file over ${MAX_FILE_LINES} lines`, () => {
    const long = CHECKED.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_FILE_LINES)
      .map(([file, lines]) => `${file} (${lines} lines)`);
    expect(long).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = CHECKED.flatMap((file) => longFunctions(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(long).toEqual([]);
  });

  it('finds a long function when there is one (the check itself works)', () => {
    const body = Array.from({ length: 60 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `export function big() {\n${body}\n}\nconst small = () => 1;`)).toEqual([
      'x.ts:1 big (62 lines)',
    ]);
  });
});
