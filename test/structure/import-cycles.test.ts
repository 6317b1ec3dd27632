/**
 * No import loops (CONTRIBUTING.md "Layers"): among the runtime code (functions/, shared/) and the tools (infra/,
 * bench/, scripts/), no module imports, however indirectly, a module that imports it. Imports are read as the boundary
 * rules read them (test/structure/boundary-rules.ts): static, `export … from`, dynamic `import()`, `require` and
 * type-only imports alike.
 *
 * Type-only imports count. TypeScript erases them, so a loop made of them runs, but it is still a loop of meaning: the
 * two modules cannot be read, moved or deleted apart, and a type shared by both belongs below both. A type-only import
 * also becomes a value import by one edit, and a value loop runs a module before its imports are initialised
 * (`undefined`, or a TDZ error) in an order that depends on which module was loaded first.
 */
import { describe, expect, it } from 'vitest';
import { readImports, type SourceText } from './boundary-rules.ts';
import { readSource, sourceFiles } from './source-files.ts';

const CHECKED = ['functions', 'shared', 'infra', 'bench', 'scripts'].flatMap(sourceFiles).map(readSource);

/** A module's name as an import resolves to it: its path without extension, and a folder for its index. */
const moduleOf = (file: string) => file.replace(/\.[cm]?[jt]s$/, '').replace(/\/index$/, '');

/** Each file's imports of the other files given (packages, Node built-ins and assets aside). */
function importGraph(files: readonly SourceText[]): Map<string, string[]> {
  const byModule = new Map(files.map((file) => [moduleOf(file.path), file.path]));
  return new Map(
    files.map((file) => {
      const targets = readImports(file).imports.flatMap((ref) => byModule.get(ref.target) ?? []);
      return [file.path, [...new Set(targets)].sort()];
    }),
  );
}

/** The strongly connected components of more than one file, or of a file importing itself (Tarjan). */
function loopsOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, low.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) loops.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return loops;
}

/** One loop through a component, from its first file back to it (`a.ts → b.ts → a.ts`), shortest first. */
function pathAround(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string {
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (const file of queue) {
    for (const next of graph.get(file) ?? []) {
      if (!component.includes(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === start) {
        const loop = [start];
        for (let at = cameFrom.get(start)!; at !== start; at = cameFrom.get(at)!) loop.unshift(at);
        return [start, ...loop].join(' → ');
      }
      queue.push(next);
    }
  }
  return component.join(', ');
}

/**
 * Every import loop among `files`, one line each: one way around it, from its first file back to that file, and the
 * other files that loop through it.
 */
function importLoops(files: readonly SourceText[]): string[] {
  const graph = importGraph(files);
  return loopsOf(graph).map((component) => {
    const around = pathAround(component, graph);
    const others = component.filter((file) => !around.includes(file));
    return others.length === 0 ? around : `${around} (and through it: ${others.join(', ')})`;
  });
}

describe('import loops', () => {
  it('reads the imports it follows', () => {
    // Guards the reader: a broken one would find no imports, and so no loop.
    const graph = importGraph(CHECKED);
    const imports = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(graph.size).toBe(CHECKED.length);
    expect(imports).toBeGreaterThan(2 * graph.size);
    expect(graph.get('shared/openapi/document.ts')).toContain('shared/openapi/operations.ts');
    expect(graph.get('bench/main.ts')?.length).toBeGreaterThan(5);
  });

  it('none among functions/, shared/, infra/, bench/ and scripts/', () => {
    const loops = importLoops(CHECKED);
    expect(loops, loops.join('\n')).toEqual([]);
  });
});

describe('the loop check fails on a planted loop, naming its files', () => {
  it.each([
    [
      'a value loop',
      [
        { path: 'shared/a.ts', text: "import { b } from './b.ts';" },
        { path: 'shared/b.ts', text: "import { a } from './a.ts';" },
      ],
      ['shared/a.ts → shared/b.ts → shared/a.ts'],
    ],
    [
      'a type-only import closing a loop of three, across folders',
      [
        { path: 'shared/openapi/operations.ts', text: "import { SEND } from './send.ts';" },
        { path: 'shared/openapi/send.ts', text: "import { READ } from '../errors/sets.ts';" },
        { path: 'shared/errors/sets.ts', text: "import type { Spec } from '../openapi/operations.ts';" },
      ],
      ['shared/errors/sets.ts → shared/openapi/operations.ts → shared/openapi/send.ts → shared/errors/sets.ts'],
    ],
    [
      'a re-export and a dynamic import',
      [
        { path: 'bench/stats.ts', text: "export * from './budgets.ts';" },
        { path: 'bench/budgets.ts', text: "const stats = await import('./stats.ts');" },
      ],
      ['bench/budgets.ts → bench/stats.ts → bench/budgets.ts'],
    ],
    [
      'two loops through one file, named once',
      [
        { path: 'infra/mail-alarms.ts', text: "import type { Mail } from './mail.ts';" },
        { path: 'infra/monitoring.ts', text: "import type { Mail } from './mail.ts';" },
        {
          path: 'infra/stack.ts',
          text: "import { Mail } from './mail.ts';\nimport { Monitoring } from './monitoring.ts';",
        },
        {
          path: 'infra/mail.ts',
          text: "import { alarms } from './mail-alarms.ts';\nimport { watch } from './monitoring.ts';",
        },
      ],
      ['infra/mail-alarms.ts → infra/mail.ts → infra/mail-alarms.ts (and through it: infra/monitoring.ts)'],
    ],
    [
      'a file importing itself, through its index name',
      [{ path: 'infra/cli/index.ts', text: "import type { X } from '../cli/index.ts';" }],
      ['infra/cli/index.ts → infra/cli/index.ts'],
    ],
  ])('%s', (_case, files, expected) => {
    expect(importLoops(files)).toEqual(expected);
  });

  it('finds none where imports only point one way (a diamond, packages, assets)', () => {
    const files = [
      { path: 'shared/top.ts', text: "import { l } from './left.ts';\nimport { r } from './right.ts';" },
      { path: 'shared/left.ts', text: "import { b } from './bottom.ts';\nimport { z } from 'zod/mini';" },
      { path: 'shared/right.ts', text: "import type { B } from './bottom.ts';\nimport x from './x.json';" },
      { path: 'shared/bottom.ts', text: "import { readFileSync } from 'node:fs';" },
    ];
    expect(importLoops(files)).toEqual([]);
  });
});
