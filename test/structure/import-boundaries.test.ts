/**
 * Dependencies point down (CONTRIBUTING.md "Layers"): handlers → http → services → representation → domain, store
 * and kernel. This test reads every import of the runtime code (functions/ and shared/: static, type-only,
 * `export … from`, dynamic, `require`) and fails on each one that points the wrong way, naming the file, the line,
 * the import and the rule; likewise on DynamoDB's own shapes outside shared/store/. Each rule is also run on a
 * planted violation, which must fail naming the planted file (the rules in test/structure/boundary-rules.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  COMPUTED_LOADS,
  dynamoDbShapesOutsideStore,
  importViolations,
  REEXPORT_RULE,
  RULES,
  readImports,
  SHAPES_RULE,
  type SourceText,
  TRANSPORT_RULE,
  transportOutsideHttp,
  UNREADABLE_RULE,
  under,
} from './boundary-rules.ts';
import { readSource, runtimeSources, sourceFiles } from './source-files.ts';

const RUNTIME = runtimeSources();
/** The benchmark and the scripts: tools, which may import anything of the project but its tests. */
const TOOLS = [...sourceFiles('bench'), ...sourceFiles('scripts')].map(readSource);

const ruleNamed = (start: string) => {
  const rule = RULES.find((r) => r.name.startsWith(start));
  if (!rule) throw new Error(`no rule starting '${start}'`);
  return rule.name;
};

/** One planted file per case: the violations must name the file and the rule (and an allowed import none). */
const PLANTED: { rule: string; file: string; text: string }[] = [
  // rendering
  {
    rule: 'shared/render imports only',
    file: 'shared/render/invoice-page.ts',
    text: "import { getAccount } from '../store/accounts.ts';",
  },
  {
    rule: 'shared/render imports only',
    file: 'shared/render/engines.ts',
    text: "import { invoiceView } from '../representation/views.ts';",
  },
  // handlers
  {
    rule: 'handlers reach',
    file: 'functions/payments/x.ts',
    text: "import { batchGet } from '../../shared/store/batch.ts';",
  },
  { rule: 'handlers reach', file: 'functions/invoices/x.ts', text: "import { SQSClient } from '@aws-sdk/client-sqs';" },
  {
    rule: 'handlers reach',
    file: 'functions/x/handler.ts',
    text: "import type { DeliveryQueue } from '../../shared/store/delivery-queue.ts';",
  },
  {
    rule: 'handlers reach',
    file: 'functions/x/handler.ts',
    text: "const s = await import('../../shared/store/webhooks.ts');",
  },
  {
    rule: 'handlers reach',
    file: 'functions/x/handler.ts',
    text: "const s = require('../../shared/store/webhooks.ts');",
  },
  {
    rule: 'handlers reach',
    file: 'functions/x/handler.ts',
    text: "export { getEvent } from '../../shared/store/webhooks.ts';",
  },
  {
    rule: 'handlers reach',
    file: 'functions/x/handler.ts',
    text: "type Q = import('../../shared/store/delivery-queue.ts').DeliveryQueue;",
  },
  {
    rule: 'handlers reach',
    file: 'functions/x/handler.ts',
    text: "import x = require('../../shared/store/batch.ts');",
  },
  {
    rule: 'handlers reach',
    file: 'functions/x/handler.ts',
    text: "import { postWebhook } from '../../shared/outbound/webhook-post.ts';",
  },
  // services
  {
    rule: 'services know no HTTP',
    file: 'shared/services/add-payment.ts',
    text: "import { buildDocument } from '../openapi/document.ts';",
  },
  {
    rule: 'services know no HTTP',
    file: 'shared/services/add-payment.ts',
    text: "import { jsonResponse } from '../http/envelope.ts';",
  },
  {
    rule: 'services know no HTTP',
    file: 'shared/services/x.ts',
    text: "import type { ApiError } from '../http/errors.ts';",
  },
  // domain
  {
    rule: 'the domain imports only',
    file: 'shared/domain/invoice.ts',
    text: "import { ApiError } from '../http/errors.ts';",
  },
  {
    rule: 'the domain imports only',
    file: 'shared/domain/invoice.ts',
    text: "import type { ErrorCode } from '../http/errors.ts';",
  },
  { rule: 'the domain imports only', file: 'shared/domain/money.ts', text: "import { keys } from '../store/keys.ts';" },
  {
    rule: 'the domain imports only',
    file: 'shared/domain/money.ts',
    text: "import { addInvoiceSchema } from '../schemas/invoice.ts';",
  },
  { rule: 'the domain imports only', file: 'shared/domain/money.ts', text: "import { success } from '../outcome.ts';" },
  { rule: 'the domain imports only', file: 'shared/domain/money.ts', text: "import { z } from 'zod/mini';" },
  // representation
  {
    rule: 'the representation imports only',
    file: 'shared/representation/views.ts',
    text: "import { jsonResponse } from '../http/envelope.ts';",
  },
  {
    rule: 'the representation imports only',
    file: 'shared/representation/views.ts',
    text: "import { itemOf } from '../store/batch.ts';",
  },
  {
    rule: 'the representation imports only',
    file: 'shared/representation/views.ts',
    text: "import { loadConfig } from '../config.ts';",
  },
  // store
  {
    rule: 'the store speaks no API',
    file: 'shared/store/clients.ts',
    text: "import { addClientSchema } from '../schemas/client.ts';",
  },
  {
    rule: 'the store speaks no API',
    file: 'shared/store/write-executor.ts',
    text: "import { ApiError } from '../http/errors.ts';",
  },
  {
    rule: 'the store speaks no API',
    file: 'shared/store/webhooks.ts',
    text: "import { invoiceView } from '../representation/views.ts';",
  },
  // middleware
  {
    rule: 'http middlewares',
    file: 'shared/http/middleware/x.ts',
    text: "import { classifyDatabaseError } from '../../store/database-errors.ts';",
  },
  // layering in general
  {
    rule: 'imports point down',
    file: 'shared/store/x.ts',
    text: "import { addPayment } from '../services/add-payment.ts';",
  },
  {
    rule: 'imports point down',
    file: 'shared/outcome.ts',
    text: "import { paymentAnswer } from './representation/views.ts';",
  },
  {
    rule: 'imports point down',
    file: 'shared/http/x.ts',
    text: "import { handler } from '../../functions/payments/handler.ts';",
  },
  { rule: 'imports point down', file: 'shared/validation.ts', text: "import { ApiError } from './http/errors.ts';" },
  // runtime and tools
  { rule: 'runtime code never', file: 'shared/config.ts', text: "import { Stack } from 'aws-cdk-lib';" },
  {
    rule: 'runtime code never',
    file: 'functions/x/handler.ts',
    text: "import { call } from '../../test/support/api.ts';",
  },
  {
    rule: 'only shared/store/',
    file: 'shared/outbound/x.ts',
    text: "import { KMSClient } from '@aws-sdk/client-kms';",
  },
  { rule: 'only shared/store/', file: 'shared/services/x.ts', text: "import { DynamoDB } from 'aws-sdk';" },
];

describe('import boundaries of the runtime code', () => {
  it('finds the imports it checks', () => {
    // Guards the reader: a broken one would find nothing and pass every rule.
    expect(RUNTIME.length).toBeGreaterThan(20);
    const imports = RUNTIME.flatMap((file) => readImports(file).imports);
    expect(imports.some((i) => i.from.startsWith('shared/store/') && i.target.startsWith('@aws-sdk/'))).toBe(true);
    expect(imports.some((i) => i.from.startsWith('shared/services/') && under(i.target, 'shared/domain'))).toBe(true);
    expect(imports.some((i) => i.kind === 'import type')).toBe(true);
  });

  it('no import of the runtime code breaks a rule', () => {
    const violations = importViolations(RUNTIME);
    expect(violations, violations.join('\n')).toEqual([]);
  });

  it('no DynamoDB shapes (stream records, attribute values, index keys, cancellations) outside shared/store/', () => {
    const found = dynamoDbShapesOutsideStore(RUNTIME);
    expect(found, found.join('\n')).toEqual([]);
  });

  it('no HTTP transport (status line, headers) outside shared/http/ and shared/openapi/', () => {
    const found = transportOutsideHttp(RUNTIME);
    expect(found, found.join('\n')).toEqual([]);
  });

  it('the benchmark and the scripts import no tests', () => {
    const imports = TOOLS.flatMap((file) => readImports(file).imports);
    expect(imports.length).toBeGreaterThan(10);
    const violations = imports.filter((i) => under(i.target, 'test')).map((i) => `${i.from} imports '${i.specifier}'`);
    expect(violations, violations.join('\n')).toEqual([]);
  });
});

describe('each rule fails on a planted violation, naming the file', () => {
  it('covers every rule', () => {
    const planted = new Set(PLANTED.map((plant) => ruleNamed(plant.rule)));
    expect(RULES.map((rule) => rule.name).filter((name) => !planted.has(name))).toEqual([]);
  });

  it.each(PLANTED.map((plant) => [plant.file, plant.text, plant] as const))('%s: %s', (_file, _text, plant) => {
    const violations = importViolations([{ path: plant.file, text: plant.text }]);
    const rule = ruleNamed(plant.rule);
    expect(
      violations.some((v) => v.startsWith(`${plant.file}:1 `) && v.endsWith(rule)),
      violations.join('\n'),
    ).toBe(true);
  });

  it('names each deliberate computed load that is still there, and only for its own file', () => {
    for (const load of COMPUTED_LOADS) {
      const { text } = readSource(load.file);
      expect(text, `${load.file} no longer has its ${load.kind}`).toMatch(
        load.kind === 'createRequire' ? /createRequire\(/ : /import\([a-zA-Z]/,
      );
      const elsewhere = importViolations([{ path: 'shared/render/other.ts', text }]);
      expect(
        elsewhere.some((v) => v.includes(UNREADABLE_RULE)),
        load.file,
      ).toBe(true);
    }
  });

  it('allows what the layers allow', () => {
    const allowed: SourceText[] = [
      {
        path: 'functions/payments/handler.ts',
        text: "import { addPayment } from '../../shared/services/add-payment.ts';",
      },
      {
        path: 'shared/http/middleware/authenticate.ts',
        text: "import type { Account } from '../../store/accounts.ts';",
      },
      {
        path: 'shared/services/add-payment.ts',
        text: "import { paymentRecorded } from '../representation/views.ts';",
      },
      { path: 'shared/representation/views.ts', text: "import { formatKobo } from '../domain/money.ts';" },
      { path: 'shared/domain/refusal.ts', text: "import { randomInt } from 'node:crypto';" },
      { path: 'shared/store/webhooks.ts', text: "export { EVENT_TTL_SECONDS } from './keys.ts';" },
    ];
    expect(importViolations(allowed)).toEqual([]);
  });

  it('a computed module name or createRequire, naming the file', () => {
    const planted = [
      { path: 'shared/services/x.ts', text: "const name = '../store/batch.ts';\nawait import(name);" },
      {
        path: 'functions/x/handler.ts',
        text: "import { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('x');",
      },
      { path: 'shared/http/x.ts', text: 'require(`../store/${"batch"}.ts`);' },
    ];
    const violations = importViolations(planted);
    for (const file of planted)
      expect(
        violations.some((v) => v.startsWith(`${file.path}:`) && v.endsWith(UNREADABLE_RULE)),
        violations.join('\n'),
      ).toBe(true);
  });

  it('a re-export across layers, naming the file', () => {
    const planted = [
      { path: 'shared/services/x.ts', text: "export { dispatchableEventId } from '../store/webhooks.ts';" },
      { path: 'shared/services/y.ts', text: "import { getEvent } from '../store/webhooks.ts';\nexport { getEvent };" },
      { path: 'shared/services/z.ts', text: "export * from '../store/batch.ts';" },
    ];
    const violations = importViolations(planted);
    for (const file of planted)
      expect(
        violations.some((v) => v.startsWith(`${file.path}:`) && v.endsWith(REEXPORT_RULE)),
        violations.join('\n'),
      ).toBe(true);
  });

  it.each([
    ['shared/services/dispatch.ts', 'const seq = record.dynamodb?.SequenceNumber;'],
    ['shared/services/dispatch.ts', "const image = record['dynamodb'];"],
    ['shared/services/dispatch.ts', 'const { dynamodb } = record;'],
    ['shared/http/envelope.ts', "if (name === 'TransactionCanceledException') return 503;"],
    ['shared/http/envelope.ts', "const reasons = propertyOf(error, 'CancellationReasons');"],
    ['functions/x/handler.ts', "if (error.name === 'ConditionalCheckFailedException') return;"],
    ['shared/services/x.ts', 'const id = image.NewImage?.event_id?.S;'],
    ['shared/domain/x.ts', "const key = { GSI1PK: 'x' };"],
    ['shared/services/x.ts', "const key = { PK: `INVOICE#${code}`, SK: 'HEADER' };"],
    ['shared/http/x.ts', "const update = { UpdateExpression: 'SET a = :a', ExpressionAttributeValues: {} };"],
    ['functions/x/handler.ts', 'const next = output.LastEvaluatedKey;'],
  ])('%s spelling a DynamoDB shape: %s', (file, text) => {
    const found = dynamoDbShapesOutsideStore([{ path: file, text }]);
    expect(found).toEqual([`${file}:1 ${text}: ${SHAPES_RULE}`]);
  });

  it.each([
    ['shared/representation/views.ts', "const response = { statusCode: 201, body: '{}' };"],
    ['shared/services/add-payment.ts', "const headers = { 'Idempotent-Replayed': 'true' };"],
    ['shared/domain/x.ts', "const header = 'Retry-After';"],
    ['shared/services/x.ts', "const key = headers['idempotency-key'];"],
    ['functions/x/handler.ts', "return { statusCode: 200, headers: { 'content-type': 'application/json' }, body };"],
  ])('%s spelling HTTP transport: %s', (file, text) => {
    expect(transportOutsideHttp([{ path: file, text }])).toEqual([`${file}:1 ${text}: ${TRANSPORT_RULE}`]);
  });

  it('DynamoDB shapes are the store’s own, and prose may name them', () => {
    const files = [
      { path: 'shared/store/webhooks.ts', text: 'record.dynamodb?.SequenceNumber' },
      {
        path: 'shared/services/x.ts',
        text: '// the record’s dynamodb.SequenceNumber is read by shared/store\nconst a = 1;',
      },
      {
        path: 'shared/routes.ts',
        text: "const actions = ['dynamodb:GetItem'];\nimport { tableName } from './store/dynamodb-client.ts';",
      },
    ];
    expect(dynamoDbShapesOutsideStore(files)).toEqual([]);
  });
});
