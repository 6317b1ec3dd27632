/**
 * Dependencies point down (CONTRIBUTING.md "Layers"): entry points → http → services → domain and store.
 * This test reads every import of the runtime code (functions/ and shared/, static and dynamic) and fails
 * on each one that points the wrong way, naming the file, the import and the rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Import {
  /** Importing file, relative to the repository root. */
  from: string;
  specifier: string;
  /** The repository path it resolves to (relative imports and `#shared/*`), or the package name. */
  target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

function importsOf(file: string): Import[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map(({ fileName: specifier }) => {
    let target = specifier;
    if (specifier.startsWith('#shared/')) target = path.posix.join('shared', specifier.slice('#shared/'.length));
    else if (specifier.startsWith('.')) target = path.posix.join(path.posix.dirname(file), specifier);
    return { from: file, specifier, target: target.replace(/\.ts$/, '') };
  });
}

const RUNTIME_FILES = [...sourceFiles('functions'), ...sourceFiles('shared')];
const IMPORTS = RUNTIME_FILES.flatMap(importsOf);

const under = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);
const isPackage = (target: string, name: string) => target === name || target.startsWith(`${name}/`);

interface Rule {
  name: string;
  /** Files the rule applies to. */
  appliesTo: (file: string) => boolean;
  /** True when the import breaks the rule. */
  forbids: (target: string) => boolean;
}

const RULES: Rule[] = [
  {
    name: 'the domain imports no store, http or services',
    appliesTo: (file) => under(file, 'shared/domain'),
    forbids: (target) => ['shared/store', 'shared/http', 'shared/services'].some((layer) => under(target, layer)),
  },
  {
    name: 'the store imports no http or services',
    appliesTo: (file) => under(file, 'shared/store'),
    forbids: (target) => ['shared/http', 'shared/services'].some((layer) => under(target, layer)),
  },
  {
    // Services, and the shared modules below them (schemas, errors, views, routes, config…), return values;
    // only the handlers, the http glue itself and the OpenAPI builder (which describes it) know HTTP.
    name: 'services and everything below them import no http',
    appliesTo: (file) => under(file, 'shared') && !under(file, 'shared/http') && !under(file, 'shared/openapi'),
    forbids: (target) => under(target, 'shared/http'),
  },
  {
    name: 'runtime code never imports the CDK, infra/, tests or the benchmark',
    appliesTo: () => true,
    forbids: (target) =>
      ['aws-cdk-lib', 'aws-cdk', 'constructs', 'cdk-nag'].some((name) => isPackage(target, name)) ||
      ['infra', 'test', 'bench', 'scripts'].some((folder) => under(target, folder)),
  },
  {
    name: 'only shared/store/ (and observability) imports the AWS SDK',
    appliesTo: (file) =>
      under(file, 'shared') && !under(file, 'shared/store') && !/^shared\/observability(\.ts|\/)/.test(file),
    forbids: (target) => target.startsWith('@aws-sdk/'),
  },
];

describe('import boundaries of the runtime code', () => {
  it('finds the imports it checks', () => {
    // Guards the parser: a broken reader would find nothing and pass every rule.
    expect(RUNTIME_FILES.length).toBeGreaterThan(20);
    expect(IMPORTS.some((i) => i.from.startsWith('shared/store/') && i.target.startsWith('@aws-sdk/'))).toBe(true);
    expect(IMPORTS.some((i) => i.from.startsWith('shared/services/') && under(i.target, 'shared/domain'))).toBe(true);
  });

  it.each(RULES.map((rule) => [rule.name, rule] as const))('%s', (_name, rule) => {
    const violations = IMPORTS.filter((i) => rule.appliesTo(i.from) && rule.forbids(i.target)).map(
      (i) => `${i.from} imports '${i.specifier}'`,
    );
    expect(violations, `${rule.name}:\n  ${violations.join('\n  ')}`).toEqual([]);
  });
});
