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
/** The benchmark and the scripts: tools, which may import anything of the project but its tests. */
const TOOL_IMPORTS = [...sourceFiles('bench'), ...sourceFiles('scripts')].flatMap(importsOf);

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
    // The domain decides on its own input types (domain/invoice-request.ts); schemas map requests onto them.
    name: 'the domain imports no request schemas or views',
    appliesTo: (file) => under(file, 'shared/domain'),
    forbids: (target) => under(target, 'shared/schemas') || under(target, 'shared/http'),
  },
  {
    name: 'the store imports no http or services',
    appliesTo: (file) => under(file, 'shared/store'),
    forbids: (target) => ['shared/http', 'shared/services'].some((layer) => under(target, layer)),
  },
  {
    // The store raises its own failures (store/write-failures.ts); status codes and client text are shared/http's.
    name: 'the store speaks no API: no request schemas, no API errors, no views',
    appliesTo: (file) => under(file, 'shared/store'),
    forbids: (target) => under(target, 'shared/schemas') || target === 'shared/errors' || under(target, 'shared/http'),
  },
  {
    // The account type aside, a middleware reaches the database only through a service or shared/http/auth.ts.
    name: 'http middlewares import nothing from the store but the Account type',
    appliesTo: (file) => under(file, 'shared/http/middleware'),
    forbids: (target) => under(target, 'shared/store') && target !== 'shared/store/accounts',
  },
  {
    // Services, and the shared modules below them (schemas, errors, views, routes, config…), return values;
    // only the handlers, the http glue itself and the OpenAPI builder (which describes it) know HTTP.
    name: 'services and everything below them import no http',
    appliesTo: (file) => under(file, 'shared') && !under(file, 'shared/http') && !under(file, 'shared/openapi'),
    forbids: (target) => under(target, 'shared/http'),
  },
  {
    // What a client sees is presentation that is neither HTTP nor store: services, shared/http and the mailer use it.
    name: 'shared/render imports only the domain, itself, node built-ins and its PDF libraries',
    appliesTo: (file) => under(file, 'shared/render'),
    forbids: (target) =>
      !(
        under(target, 'shared/domain') ||
        under(target, 'shared/render') ||
        target.startsWith('node:') ||
        ['pdfkit', 'fontkit'].some((name) => isPackage(target, name))
      ),
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

/** DynamoDB's own shapes: stream images, attribute-value maps, the index's key attribute names. */
const DYNAMODB_SHAPES = /\bNewImage\b|\bOldImage\b|\bAttributeValue\b|\bGSI\d(PK|SK)\b|\?\.S\b|\{ ?S: /;

/** Runtime files outside the store that spell out a DynamoDB shape, with the line. */
function dynamoDbShapesOutsideStore(files: readonly string[], read: (file: string) => string): string[] {
  return files
    .filter((file) => !under(file, 'shared/store'))
    .flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) => (DYNAMODB_SHAPES.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
}

describe('import boundaries of the runtime code', () => {
  it('finds the imports it checks', () => {
    // Guards the parser: a broken reader would find nothing and pass every rule.
    expect(RUNTIME_FILES.length).toBeGreaterThan(20);
    expect(IMPORTS.some((i) => i.from.startsWith('shared/store/') && i.target.startsWith('@aws-sdk/'))).toBe(true);
    expect(IMPORTS.some((i) => i.from.startsWith('shared/services/') && under(i.target, 'shared/domain'))).toBe(true);
  });

  it('no DynamoDB shapes (stream images, attribute values, index key names) outside shared/store/', () => {
    const found = dynamoDbShapesOutsideStore(RUNTIME_FILES, (file) => readFileSync(path.join(ROOT, file), 'utf8'));
    expect(found, found.join('\n')).toEqual([]);
  });

  it('the benchmark and the scripts import no tests', () => {
    expect(TOOL_IMPORTS.length).toBeGreaterThan(10);
    const violations = TOOL_IMPORTS.filter((i) => under(i.target, 'test')).map(
      (i) => `${i.from} imports '${i.specifier}'`,
    );
    expect(violations, violations.join('\n')).toEqual([]);
  });

  it('each rule catches a deliberate violation', () => {
    const violates = (from: string, target: string) =>
      RULES.some((rule) => rule.appliesTo(from) && rule.forbids(target));
    expect(violates('shared/domain/invoice.ts', 'shared/schemas/invoice')).toBe(true);
    expect(violates('shared/store/clients.ts', 'shared/schemas/client')).toBe(true);
    expect(violates('shared/store/write-executor.ts', 'shared/errors')).toBe(true);
    expect(violates('shared/http/middleware/error-envelope.ts', 'shared/store/write-executor')).toBe(true);
    expect(violates('shared/http/middleware/authenticate.ts', 'shared/store/accounts')).toBe(false);
    expect(violates('shared/services/add-payment.ts', 'shared/http/views')).toBe(true);
    expect(violates('shared/services/payment-history.ts', 'shared/http/cursor')).toBe(true);
    expect(violates('shared/render/invoice-page.ts', 'shared/store/accounts')).toBe(true);
    expect(violates('shared/render/invoice-page.ts', 'shared/http/views')).toBe(true);
    expect(violates('shared/render/invoice-document.ts', 'shared/domain/overdue')).toBe(false);
    const shapes = dynamoDbShapesOutsideStore(
      ['shared/services/x.ts', 'shared/store/y.ts'],
      () => 'a.dynamodb?.NewImage?.id?.S',
    );
    expect(shapes).toEqual(['shared/services/x.ts:1: a.dynamodb?.NewImage?.id?.S']);
  });

  it.each(RULES.map((rule) => [rule.name, rule] as const))('%s', (_name, rule) => {
    const violations = IMPORTS.filter((i) => rule.appliesTo(i.from) && rule.forbids(i.target)).map(
      (i) => `${i.from} imports '${i.specifier}'`,
    );
    expect(violations, `${rule.name}:\n  ${violations.join('\n  ')}`).toEqual([]);
  });
});
