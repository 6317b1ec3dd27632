/**
 * The layering rules of the runtime code (CONTRIBUTING.md "Layers") as data, and the reader that checks them.
 * Pure: it takes files as path and text, so that the test can run it on the tree and on planted violations alike.
 *
 * The reader uses TypeScript's parser, not a regular expression: static imports (`import type` included),
 * `export … from`, `import x = require(…)`, dynamic `import(…)`, `require(…)` and type-level `import('…').T` are all
 * imports. A module name it cannot read statically (a computed `import(name)`, `createRequire`) is a violation by
 * itself: the rules could not be checked against it.
 */
import path from 'node:path';
import ts from 'typescript';

export interface SourceText {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

export interface ImportRef {
  from: string;
  line: number;
  specifier: string;
  /** The repository path it resolves to, without extension (relative imports), or the package name. */
  target: string;
  kind: 'import' | 'import type' | 'export from' | 'dynamic import' | 'require' | 'type import()';
}

/** Each layer of the runtime code, highest first: a file may import its own layer and the layers below it only. */
export const LAYERS = [
  { name: 'handlers', rank: 5, owns: (file: string) => under(file, 'functions') },
  { name: 'http', rank: 4, owns: (file: string) => under(file, 'shared/http') || under(file, 'shared/openapi') },
  { name: 'services', rank: 3, owns: (file: string) => under(file, 'shared/services') },
  { name: 'representation', rank: 2, owns: (file: string) => under(file, 'shared/representation') },
  // The domain, the store, the request schemas, the outbound POST and the shared kernel (shared/*.ts).
  { name: 'domain, store and kernel', rank: 1, owns: (file: string) => under(file, 'shared') },
] as const;

export const under = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);
const isPackage = (target: string, name: string) => target === name || target.startsWith(`${name}/`);
const isAwsSdk = (target: string) =>
  target.startsWith('@aws-sdk/') || target.startsWith('@smithy/') || isPackage(target, 'aws-sdk');
const isRuntime = (file: string) => under(file, 'functions') || under(file, 'shared');

export const layerOf = (file: string) => LAYERS.find((layer) => layer.owns(file));

export interface Rule {
  name: string;
  appliesTo: (file: string) => boolean;
  forbids: (target: string, from: string) => boolean;
}

export const RULES: Rule[] = [
  {
    name: 'imports point down: handlers → http → services → representation → domain, store and kernel',
    appliesTo: isRuntime,
    forbids: (target, from) => {
      const own = layerOf(from);
      const theirs = isRuntime(target) ? layerOf(target) : undefined;
      return own !== undefined && theirs !== undefined && theirs.rank > own.rank;
    },
  },
  {
    name: 'handlers reach the database and the network only through services (no store, no AWS SDK, no outbound)',
    appliesTo: (file) => under(file, 'functions'),
    forbids: (target) => under(target, 'shared/store') || under(target, 'shared/outbound') || isAwsSdk(target),
  },
  {
    name: 'services know no HTTP and no OpenAPI',
    appliesTo: (file) => under(file, 'shared/services'),
    forbids: (target) => under(target, 'shared/http') || under(target, 'shared/openapi'),
  },
  {
    // Pure decisions: no HTTP status (shared/http/errors.ts), no store, no request schemas, no packages.
    name: 'the domain imports only the domain and Node built-ins',
    appliesTo: (file) => under(file, 'shared/domain'),
    forbids: (target) => !under(target, 'shared/domain') && !target.startsWith('node:'),
  },
  {
    // What the API answers (views, write answers), without transport: no headers, envelopes or status table. An
    // invoice's hosted_url is on the stage's base URL (shared/hosted-url.ts), configuration every view must agree on.
    name: 'the representation imports only itself, the domain, shared/outcome and shared/hosted-url',
    appliesTo: (file) => under(file, 'shared/representation'),
    forbids: (target) =>
      !['shared/representation', 'shared/domain', 'shared/outcome', 'shared/hosted-url'].some((allowed) =>
        under(target, allowed),
      ),
  },
  {
    // What a client sees (document model, page, PDF, e-invoice) is presentation that is neither HTTP nor store:
    // services, shared/http and the mailer use it; it knows nothing of them.
    name: 'shared/render imports only the domain, itself, Node built-ins and its PDF and XML libraries',
    appliesTo: (file) => under(file, 'shared/render'),
    forbids: (target) =>
      !(
        under(target, 'shared/render') ||
        under(target, 'shared/domain') ||
        target.startsWith('node:') ||
        ['pdfkit', 'fontkit', 'xmlbuilder2'].some((name) => isPackage(target, name))
      ),
  },
  {
    // The store raises its own failures (store/write-executor.ts); statuses and client text are shared/http's.
    name: 'the store speaks no API: no http, services, representation, request schemas or OpenAPI',
    appliesTo: (file) => under(file, 'shared/store'),
    forbids: (target) =>
      ['shared/http', 'shared/services', 'shared/representation', 'shared/schemas', 'shared/openapi'].some((layer) =>
        under(target, layer),
      ),
  },
  {
    name: 'http middlewares import nothing from the store but the Account type',
    appliesTo: (file) => under(file, 'shared/http/middleware'),
    forbids: (target) => under(target, 'shared/store') && target !== 'shared/store/accounts',
  },
  {
    name: 'runtime code never imports the CDK, infra/, tests, the benchmark or scripts',
    appliesTo: isRuntime,
    forbids: (target) =>
      ['aws-cdk-lib', 'aws-cdk', 'constructs', 'cdk-nag'].some((name) => isPackage(target, name)) ||
      ['infra', 'test', 'bench', 'scripts'].some((folder) => under(target, folder)),
  },
  {
    name: 'only shared/store/ (and observability) imports the AWS SDK',
    appliesTo: (file) => isRuntime(file) && !under(file, 'shared/store') && !under(file, 'shared/observability'),
    forbids: isAwsSdk,
  },
];

/** A module re-exported from another layer would let a higher layer reach it without importing it. */
export const REEXPORT_RULE = 'no re-export across layers (`export … from`, or an imported name exported again)';
export const UNREADABLE_RULE = 'module names are static strings (the rules cannot follow a computed one)';
export const SHAPES_RULE =
  'no DynamoDB shapes outside shared/store/ (stream records, attribute values, keys, expressions, cancellations)';

/**
 * The deliberate computed loads of the runtime code, each with its reason: the rules cannot follow them, so each is
 * named here, by file and kind, and nowhere else is one allowed (a stale entry fails the boundary test).
 */
export const COMPUTED_LOADS: readonly { file: string; kind: 'dynamic import' | 'createRequire'; why: string }[] = [
  {
    file: 'shared/render/engines.ts',
    kind: 'dynamic import',
    why:
      'the engines (the PDF engine with pdfkit and the fonts, the UBL engine with xmlbuilder2, or their bundles ' +
      'beside the function), each loaded on its first use from a URL resolved at run time: a specifier ' +
      'chosen at run time keeps the bundler from inlining them (docs/decisions.md "PDF: pdfkit and Noto Sans")',
  },
  {
    file: 'shared/render/pdf-drawing.ts',
    kind: 'createRequire',
    why: "resolves the font files' path in node_modules when run from source (an asset, never a module it loads)",
  },
];

const isComputedLoadAllowed = (file: string, kind: string) =>
  COMPUTED_LOADS.some((load) => load.file === file && load.kind === kind);

/** Where `specifier`, imported by `from`, points: a repository path without extension, or a package name. */
export function resolveTarget(from: string, specifier: string): string {
  let target = specifier;
  if (specifier.startsWith('#shared/')) target = path.posix.join('shared', specifier.slice('#shared/'.length));
  else if (specifier.startsWith('.')) target = path.posix.join(path.posix.dirname(from), specifier);
  else if (specifier.startsWith('/'))
    target = path.posix.normalize(specifier).replace(/^.*?\/(functions|shared)\//, '$1/');
  return target.replace(/\.(d\.)?[cm]?[jt]s$/, '').replace(/\/index$/, '');
}

const literalText = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

interface Found {
  imports: ImportRef[];
  unreadable: string[];
  reexports: string[];
}

/** Every import of one file, the module loads it cannot read, and the names it exports again from another module. */
export function readImports(file: SourceText): Found {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const found: Found = { imports: [], unreadable: [], reexports: [] };
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const add = (node: ts.Node, specifierNode: ts.Node | undefined, kind: ImportRef['kind']) => {
    const specifier = literalText(specifierNode);
    if (specifier === undefined) {
      if (isComputedLoadAllowed(file.path, kind)) return;
      found.unreadable.push(`${file.path}:${lineOf(node)} ${kind} of a computed module name: ${UNREADABLE_RULE}`);
      return;
    }
    const target = resolveTarget(file.path, specifier);
    found.imports.push({ from: file.path, line: lineOf(node), specifier, target, kind });
  };
  const importedNames = new Map<string, ImportRef>();
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ? 'import type' : 'import');
      rememberNames(node, found.imports.at(-1), importedNames);
    } else if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier) add(node, node.moduleSpecifier, 'export from');
      else noteReexports(node, importedNames, file.path, lineOf(node), found.reexports);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, 'require');
    } else if (ts.isImportTypeNode(node)) {
      add(node, ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined, 'type import()');
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], 'dynamic import');
      else if (ts.isIdentifier(node.expression) && node.expression.text === 'require')
        add(node, node.arguments[0], 'require');
    } else if (
      ts.isIdentifier(node) &&
      node.text === 'createRequire' &&
      !isComputedLoadAllowed(file.path, 'createRequire')
    ) {
      found.unreadable.push(`${file.path}:${lineOf(node)} createRequire: ${UNREADABLE_RULE}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function rememberNames(node: ts.ImportDeclaration, ref: ImportRef | undefined, names: Map<string, ImportRef>) {
  const clause = node.importClause;
  if (!clause || !ref) return;
  if (clause.name) names.set(clause.name.text, ref);
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.set(bindings.name.text, ref);
  if (bindings && ts.isNamedImports(bindings))
    for (const element of bindings.elements) names.set(element.name.text, ref);
}

function noteReexports(
  node: ts.ExportDeclaration,
  names: Map<string, ImportRef>,
  file: string,
  line: number,
  out: string[],
) {
  if (!node.exportClause || !ts.isNamedExports(node.exportClause)) return;
  for (const element of node.exportClause.elements) {
    const local = (element.propertyName ?? element.name).getText();
    const ref = names.get(local);
    if (ref && isReexportAcrossLayers(file, ref.target))
      out.push(`${file}:${line} exports '${local}' again from '${ref.specifier}': ${REEXPORT_RULE}`);
  }
}

/** A file's home: its folder under shared/ (store, domain, http…), `shared` for the kernel, or its function's folder. */
const homeOf = (file: string) => {
  const [top, second, third] = file.split('/');
  return third === undefined ? top : `${top}/${second}`;
};

/** Re-exports are fine inside one home; across homes they hide where a name lives (and which layer it is). */
const isReexportAcrossLayers = (from: string, target: string) => isRuntime(target) && homeOf(target) !== homeOf(from);

/** Violations of the import rules in `files`, one line each, naming the file, the line, the import and the rule. */
export function importViolations(files: readonly SourceText[], rules: readonly Rule[] = RULES): string[] {
  return files.flatMap((file) => {
    const { imports, unreadable, reexports } = readImports(file);
    const broken = imports.flatMap((ref) =>
      rules
        .filter((rule) => rule.appliesTo(ref.from) && rule.forbids(ref.target, ref.from))
        .map((rule) => `${ref.from}:${ref.line} ${ref.kind} '${ref.specifier}': ${rule.name}`),
    );
    const reexportsFrom = imports
      .filter((ref) => ref.kind === 'export from' && isReexportAcrossLayers(ref.from, ref.target))
      .map((ref) => `${ref.from}:${ref.line} export from '${ref.specifier}': ${REEXPORT_RULE}`);
    return [...broken, ...reexportsFrom, ...reexports, ...unreadable];
  });
}

/**
 * DynamoDB's own shapes, which only shared/store/ may spell: stream images and records (`.dynamodb`,
 * `SequenceNumber`), attribute-value maps, the table's and the indexes' key attributes, commands' parameters and
 * expressions, and the SDK's cancellation errors.
 */
const DYNAMODB_SHAPES = new RegExp(
  [
    String.raw`\bNewImage\b`,
    String.raw`\bOldImage\b`,
    String.raw`\bAttributeValue\b`,
    String.raw`\bGSI\d(PK|SK)\b`,
    String.raw`\?\.S\b`,
    String.raw`\{ ?S: `,
    String.raw`(?<![-/\w])dynamodb(?![-:\w])`,
    String.raw`\bSequenceNumber\b`,
    String.raw`\bCancellationReasons\b`,
    String.raw`\bTransactionCanceledException\b`,
    String.raw`\bConditionalCheckFailedException\b`,
    String.raw`\b(PK|SK|TableName|TransactItems|LastEvaluatedKey|ExclusiveStartKey)\b`,
    String.raw`\b(KeyCondition|Condition|Update|Filter|Projection)Expression\b`,
    String.raw`\bExpressionAttribute(Names|Values)\b`,
  ].join('|'),
);

/** Where the comments of a source text are: start and end offsets, each comment once. */
function commentRanges(text: string): Map<number, number> {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const comments = new Map<number, number>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) comments.set(range.pos, range.end);
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return comments;
}

const blank = (part: string) => part.replace(/[^\n]/g, ' ');

/** The text with its comments blanked out (line numbers kept), so that prose may name what code may not. */
export function withoutComments(text: string): string {
  let out = text;
  for (const [pos, end] of commentRanges(text)) out = out.slice(0, pos) + blank(out.slice(pos, end)) + out.slice(end);
  return out;
}

/** The text with everything but its comments blanked out (line numbers kept): the prose alone. */
export function commentsOnly(text: string): string {
  const ranges = [...commentRanges(text)].sort(([a], [b]) => a - b);
  let out = '';
  let at = 0;
  for (const [pos, end] of ranges) {
    out += blank(text.slice(at, pos)) + text.slice(pos, end);
    at = end;
  }
  return out + blank(text.slice(at));
}

/** Runtime files outside the store that spell out a DynamoDB shape, with the line. */
export function dynamoDbShapesOutsideStore(files: readonly SourceText[]): string[] {
  return files
    .filter((file) => isRuntime(file.path) && !under(file.path, 'shared/store'))
    .flatMap((file) =>
      withoutComments(file.text)
        .split('\n')
        .flatMap((line, index) =>
          DYNAMODB_SHAPES.test(line) ? [`${file.path}:${index + 1} ${line.trim()}: ${SHAPES_RULE}`] : [],
        ),
    );
}

export const TRANSPORT_RULE =
  "the API's HTTP transport (status line, headers) is spelled only in shared/http/ and shared/openapi/";

/**
 * The API's HTTP transport: the response's status line and the headers the API itself answers with or reads (a
 * webhook's outbound request, signed by the domain, has headers of its own: not these).
 */
const TRANSPORT = /\bstatusCode\b|['"`](retry-after|www-authenticate|idempotent-replayed|idempotency-key)['"`]/i;

/** Runtime files outside shared/http/ and shared/openapi/ (and the outbound POST, shared/outbound/) spelling it. */
export function transportOutsideHttp(files: readonly SourceText[]): string[] {
  return files
    .filter(
      (file) =>
        isRuntime(file.path) &&
        !['shared/http', 'shared/openapi', 'shared/outbound'].some((own) => under(file.path, own)),
    )
    .flatMap((file) =>
      withoutComments(file.text)
        .split('\n')
        .flatMap((line, index) =>
          TRANSPORT.test(line) ? [`${file.path}:${index + 1} ${line.trim()}: ${TRANSPORT_RULE}`] : [],
        ),
    );
}
