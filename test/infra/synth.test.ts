import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_KB_BUDGET, ESM_REQUIRE_BANNER } from '../../infra/function-settings.ts';
import { startLocalSes } from '../../infra/local/ses-server.ts';
import { node22Binary } from '../../infra/tools/node22.ts';
import { resetConfig } from '../../shared/config.ts';
import { apiGatewayRoutePath, routeKeys } from '../../shared/gateway-routes.ts';
import {
  BUNDLED_FONT_DIR,
  FONT_FILES,
  PDF_ENGINE_BUNDLE_FILE,
  UBL_ENGINE_BUNDLE_FILE,
} from '../../shared/render/engine-files.ts';
import { API_FUNCTIONS, ROUTES } from '../../shared/routes.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { getMailJob, listMailJobs } from '../../shared/store/mail.ts';
import { JOB_KIND_NAMES, jobMessageBody } from '../../shared/store/outbox.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { call, createInvoice, makeEvent, newAccount, todayMonthFirst } from '../support/api.ts';
import { pdfText } from '../support/pdf-text.ts';
import { canRunOffline, cdkSynth, envWithoutAwsCredentials } from './cli.ts';
import { FUNCTION_FIXTURES, loadEvent } from './event-fixtures.ts';
import { type CfnResource, FUNCTION_IDS } from './template-helpers.ts';

const execFileAsync = promisify(execFile);
const where = canRunOffline ? 'with no AWS credentials and no network' : 'with no AWS credentials';

describe(`npx cdk synth -c stage=prod, ${where}`, () => {
  let outdir: string;
  let resources: Record<string, CfnResource>;
  const ofType = (type: string) => Object.values(resources).filter((resource) => resource.Type === type);
  const functionAt = (name: keyof typeof FUNCTION_IDS) =>
    ofType('AWS::Lambda::Function').find(
      (fn) => fn.Metadata?.['aws:cdk:path'] === `Invoicing-prod/${FUNCTION_IDS[name]}/Resource`,
    )!;
  const bundleOf = (name: keyof typeof FUNCTION_IDS) =>
    path.join(outdir, String(functionAt(name).Metadata!['aws:asset:path']), 'index.mjs');

  beforeAll(() => {
    outdir = mkdtempSync(path.join(tmpdir(), 'invoicing-synth-'));
    cdkSynth('prod', outdir, { offline: canRunOffline });
    resources = JSON.parse(readFileSync(path.join(outdir, 'Invoicing-prod.template.json'), 'utf8')).Resources;
  }, 120_000);

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('produces the table, three API functions, the outbox dispatcher and a worker per job kind, the wake sweep, the mail report handler, and the routes of the route table', () => {
    expect(ofType('AWS::DynamoDB::GlobalTable')).toHaveLength(1);
    expect(ofType('AWS::Lambda::Function')).toHaveLength(API_FUNCTIONS.length + 1 + JOB_KIND_NAMES.length + 2);
    expect(
      ofType('AWS::ApiGatewayV2::Route')
        .map((route) => route.Properties.RouteKey)
        .sort(),
    ).toEqual(
      ROUTES.flatMap((route) => routeKeys(route).map((key) => `${key.method} ${apiGatewayRoutePath(key.path)}`)).sort(),
    );
  });

  it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))(
    '%s: carries aws:asset:path metadata (sam-cli) to a minified ESM bundle with the SDK inside',
    (name) => {
      expect(functionAt(name).Metadata).toMatchObject({
        'aws:asset:path': expect.stringMatching(/^asset\./),
        'aws:asset:property': 'Code',
      });
      const bundle = readFileSync(bundleOf(name), 'utf8');
      expect(bundle.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
      expect(bundle).not.toMatch(/from\s*["']@aws-sdk\//);
      const lines = bundle.split('\n');
      expect(bundle.length / lines.length).toBeGreaterThan(1000); // minified
      // No source map: neither inline nor beside the bundle (they cost cold-start time with --enable-source-maps).
      expect(bundle).not.toMatch(/sourceMappingURL/);
      expect(existsSync(`${bundleOf(name)}.map`)).toBe(false);
    },
  );

  // Guards the cold-start budget (docs/performance.md): the largest bundle, the invoice function's, is ~750 KB (it
  // serves invoices, clients, hosted pages, paying online, recurring invoices, credit notes and transfers); importing
  // zod classic instead of zod/mini (`import { z } from 'zod'`) would add ~420 KB and ~25 ms of import time. The
  // import time itself is the bench's cold-start row.
  it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))(
    `%s: the bundle stays under ${BUNDLE_KB_BUDGET} KB`,
    (name) => {
      expect(readFileSync(bundleOf(name)).length).toBeLessThan(BUNDLE_KB_BUDGET * 1024);
    },
  );

  /** Runs a bundle's handler on Node 22 (what Lambda runs) with `event`, against DynamoDB Local; returns its result. */
  function invokeOnNode22(name: keyof typeof FUNCTION_IDS, event: Record<string, any>) {
    const runner = path.join(outdir, 'invoke.mjs');
    const eventFile = path.join(outdir, `${name}-${event.requestContext.requestId}-event.json`);
    const resultFile = path.join(outdir, `${name}-${event.requestContext.requestId}-result.json`);
    writeFileSync(eventFile, JSON.stringify(event));
    writeFileSync(
      runner,
      `import { readFileSync, writeFileSync } from 'node:fs';
       const [bundle, eventFile, resultFile] = process.argv.slice(2);
       const { handler } = await import(bundle);
       const event = JSON.parse(readFileSync(eventFile, 'utf8'));
       const context = { functionName: 'probe', functionVersion: '$LATEST', awsRequestId: event.requestContext.requestId,
         invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:probe', memoryLimitInMB: '512',
         logGroupName: 'probe', logStreamName: 'probe', callbackWaitsForEmptyEventLoop: true,
         getRemainingTimeInMillis: () => 10_000 };
       writeFileSync(resultFile, JSON.stringify({ node: process.version, result: await handler(event, context) }));`,
    );
    execFileSync(node22Binary(), [runner, bundleOf(name), eventFile, resultFile], {
      env: {
        ...envWithoutAwsCredentials(),
        AWS_REGION: 'local',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
        TABLE_NAME: process.env.TABLE_NAME,
        LOG_LEVEL: 'SILENT',
        POWERTOOLS_SERVICE_NAME: 'invoicing',
        POWERTOOLS_METRICS_NAMESPACE: 'Invoicing',
        POWERTOOLS_TRACE_ENABLED: 'false',
        AUTH_CACHE_SECONDS: '30',
      },
      stdio: 'pipe',
      timeout: 30_000,
    });
    const { node, result } = JSON.parse(readFileSync(resultFile, 'utf8'));
    expect(node).toMatch(/^v22\./);
    const isJson = String(result.headers?.['content-type'] ?? '').startsWith('application/json');
    return {
      statusCode: result.statusCode as number,
      headers: result.headers as Record<string, string>,
      rawBody: result.body as string,
      body: isJson ? JSON.parse(result.body) : undefined,
    };
  }

  // The placeholder key is well-formed but unknown: each bundle must load, authenticate against DynamoDB
  // Local and answer the 401 envelope.
  it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))(
    '%s: the built bundle, on Node 22, answers its event fixture with 401 invalid_api_key',
    (name) => {
      const result = invokeOnNode22(name, loadEvent(FUNCTION_FIXTURES[name]));
      expect(result.statusCode).toBe(401);
      expect(result.body).toMatchObject({ status: 'error', code: 'invalid_api_key' });
    },
  );

  // With a real key (and, for the payment, a real invoice dated today) the deployed code does its work.
  it('the built bundles, on Node 22, create an invoice, pay it and list the payment from their fixtures', async () => {
    const { key } = await newAccount();
    const withKey = (name: string, body?: Record<string, unknown>) => {
      const event = loadEvent(name);
      event.headers.authorization = `Bearer ${key}`;
      if (body) event.body = JSON.stringify({ ...JSON.parse(event.body), ...body });
      return event;
    };
    const invoice = invokeOnNode22('invoices', withKey('add-invoice'));
    expect(invoice.statusCode, JSON.stringify(invoice.body)).toBe(201);
    const { reference_code } = await createInvoice(key);
    const payment = invokeOnNode22(
      'payments',
      withKey('add-payment', { reference_code, date: todayMonthFirst(), amount: '100.00' }),
    );
    expect(payment.statusCode, JSON.stringify(payment.body)).toBe(201);
    const history = invokeOnNode22('history', withKey('payment-history', { period: 'today' }));
    expect(history.statusCode, JSON.stringify(history.body)).toBe(200);
    expect(history.body.data.payments.map((p: { id: number }) => p.id)).toEqual([payment.body.data.id]);
  });

  // The PDF engine (pdfkit, fontkit) is a file of its own beside the bundle of each function that renders PDFs (the
  // invoice function; the history function, for a statement's PDF), with the fonts (infra/function-settings.ts
  // PDF_BUNDLING): the bundle imports it on the first PDF only.
  it('the invoice function ships the PDF engine and fonts beside its bundle, and on Node 22 renders a PDF with them', async () => {
    for (const name of ['invoices', 'history'] as const) {
      const dir = path.dirname(bundleOf(name));
      expect(existsSync(path.join(dir, PDF_ENGINE_BUNDLE_FILE))).toBe(true);
      for (const file of Object.values(FONT_FILES))
        expect(existsSync(path.join(dir, BUNDLED_FONT_DIR, path.basename(file)))).toBe(true);
      // pdfkit's ToUnicode writer is in the engine, not in the bundle every request loads.
      expect(readFileSync(bundleOf(name), 'utf8')).not.toContain('ToUnicode');
      expect(readFileSync(path.join(dir, PDF_ENGINE_BUNDLE_FILE), 'utf8')).toContain('ToUnicode');
    }
    expect(existsSync(path.join(path.dirname(bundleOf('payments')), PDF_ENGINE_BUNDLE_FILE))).toBe(false);
    // The UBL engine ships beside the invoice function's bundle only.
    expect(existsSync(path.join(path.dirname(bundleOf('invoices')), UBL_ENGINE_BUNDLE_FILE))).toBe(true);
    expect(existsSync(path.join(path.dirname(bundleOf('history')), UBL_ENGINE_BUNDLE_FILE))).toBe(false);
    // One PDF engine (pdfkit once) draws every PDF: beside the invoice function's bundle there is no other.
    const engines = readdirSync(path.dirname(bundleOf('invoices'))).filter((file) => file.endsWith('.mjs'));
    expect(engines.sort()).toEqual(['index.mjs', PDF_ENGINE_BUNDLE_FILE, UBL_ENGINE_BUNDLE_FILE].sort());

    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const token = new URL(invoice.hosted_url).pathname.split('/')[2]!;
    const pdf = invokeOnNode22('invoices', makeEvent('hosted-invoice-pdf', { pathParameters: { token } }) as any);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(Buffer.from(pdf.rawBody, 'base64'));
    expect(text).toContain(invoice.reference_code);
    expect(text).toContain('₦50,000.00');
    const page = invokeOnNode22('invoices', makeEvent('hosted-invoice-page', { pathParameters: { token } }) as any);
    expect(page.statusCode).toBe(200);
    expect(page.rawBody).toContain(invoice.reference_code);
    const body = { reason: 'Goodwill', amount: '1,000.00' };
    const ref = { reference_code: invoice.reference_code };
    const note = (await call('create-credit-note', { key, pathParameters: ref, body })).body.data;
    const notePathParameters = { ...ref, number: note.number };
    const notePdf = invokeOnNode22(
      'invoices',
      makeEvent('credit-note-pdf', { key, pathParameters: notePathParameters }) as any,
    );
    expect(notePdf.statusCode, notePdf.rawBody).toBe(200);
    expect(pdfText(Buffer.from(notePdf.rawBody, 'base64'))).toContain(note.number);
    // The UBL engine, loaded from its own file on the first e-invoice (which needs the seller's e-mail and tax id).
    await updateAccount(account.companyId, { profile: { email: 'billing@synth.example', taxId: '12345678-0001' } });
    const ubl = invokeOnNode22('invoices', makeEvent('invoice-ubl', { key, pathParameters: ref }) as any);
    expect(ubl.statusCode, ubl.rawBody).toBe(200);
    expect(ubl.rawBody).toContain('<Invoice');
    expect(ubl.rawBody).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
  });

  // The scheduled wake sweep (infra/wake-sweep.ts; its construct keeps the id `Overdue`): its bundle loads on Node 22
  // and, given EventBridge's scheduled event, notifies an overdue invoice once.
  it('the wake sweep bundle, on Node 22, stays under 700 KB and notifies an overdue invoice from a scheduled event', async () => {
    const sweep = Object.values(resources).find(
      (fn) => fn.Metadata?.['aws:cdk:path'] === 'Invoicing-prod/Overdue/SweepFunction/Resource',
    )!;
    const bundle = path.join(outdir, String(sweep.Metadata!['aws:asset:path']), 'index.mjs');
    expect(readFileSync(bundle).length).toBeLessThan(700 * 1024);
    const { account, key } = await newAccount();
    const overdue = await createInvoice(key, { due_date: '01/15/2020' });
    const runner = path.join(outdir, 'invoke-sweep.mjs');
    const resultFile = path.join(outdir, 'sweep-result.json');
    writeFileSync(
      runner,
      `import { writeFileSync } from 'node:fs';
       const [bundle, resultFile] = process.argv.slice(2);
       const { handler } = await import(bundle);
       const event = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };
       writeFileSync(resultFile, JSON.stringify({ node: process.version, result: await handler(event, {}) }));`,
    );
    execFileSync(node22Binary(), [runner, bundle, resultFile], {
      env: {
        ...envWithoutAwsCredentials(),
        AWS_REGION: 'local',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
        TABLE_NAME: process.env.TABLE_NAME,
        LOG_LEVEL: 'SILENT',
        POWERTOOLS_TRACE_ENABLED: 'false',
      },
      stdio: 'pipe',
      timeout: 60_000,
    });
    const { node, result } = JSON.parse(readFileSync(resultFile, 'utf8'));
    expect(node).toMatch(/^v22\./);
    expect(result).toMatchObject({ examined: expect.any(Number), notified: expect.any(Number) });
    const events = (await listDeliveries(account.companyId)).filter((line) => line.type === 'invoice.overdue');
    expect(events).toHaveLength(1);
    expect(overdue.payment_status).toBe('overdue');
  });

  // The mailer (infra/mail.ts): its bundle, with the PDF engine and fonts beside it, sends a queued job on Node 22
  // through the local SES server — PDF rendered, message built, job and invoice `sent`.
  it('the mailer bundle, on Node 22, renders the PDF with its engine and sends a queued e-mail through SES', async () => {
    const mailer = Object.values(resources).find(
      (fn) => fn.Metadata?.['aws:cdk:path'] === 'Invoicing-prod/Mail/MailerFunction/Resource',
    )!;
    const bundle = path.join(outdir, String(mailer.Metadata!['aws:asset:path']), 'index.mjs');
    expect(existsSync(path.join(path.dirname(bundle), PDF_ENGINE_BUNDLE_FILE))).toBe(true);
    const mailDir = path.join(outdir, 'mail');
    const ses = await startLocalSes({ port: 0, mailDir, onNotice: async () => undefined });
    const saved = process.env.MAIL_FROM;
    process.env.MAIL_FROM = 'invoices@example.com';
    resetConfig();
    try {
      const { account, key } = await newAccount();
      const invoice = await createInvoice(key);
      const sent = await call('email-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
      expect(sent.status).toBe(200);
      const [job] = await listMailJobs(account.companyId, 1);
      const event = {
        Records: [
          {
            messageId: 'm1',
            receiptHandle: 'r1',
            body: jobMessageBody('mail', job!.jobId),
            attributes: {},
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: 'arn:aws:sqs:local:0:mail',
            awsRegion: 'local',
          },
        ],
      };
      const runner = path.join(outdir, 'invoke-mailer.mjs');
      const resultFile = path.join(outdir, 'mailer-result.json');
      writeFileSync(path.join(outdir, 'mailer-event.json'), JSON.stringify(event));
      writeFileSync(
        runner,
        `import { readFileSync, writeFileSync } from 'node:fs';
         const [bundle, eventFile, resultFile] = process.argv.slice(2);
         const { handler } = await import(bundle);
         const result = await handler(JSON.parse(readFileSync(eventFile, 'utf8')));
         writeFileSync(resultFile, JSON.stringify({ node: process.version, result }));`,
      );
      // Asynchronously: the local SES server answers from this process, which a synchronous child would block.
      const { stdout: logs } = await execFileAsync(
        node22Binary(),
        [runner, bundle, path.join(outdir, 'mailer-event.json'), resultFile],
        {
          env: {
            ...envWithoutAwsCredentials(),
            AWS_REGION: 'local',
            AWS_ACCESS_KEY_ID: 'local',
            AWS_SECRET_ACCESS_KEY: 'local',
            DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
            TABLE_NAME: process.env.TABLE_NAME,
            SES_ENDPOINT: ses.url,
            MAIL_FROM: 'invoices@example.com',
            MAIL_QUEUE_URL: 'http://127.0.0.1:9/unused',
            PUBLIC_BASE_URL: 'https://api.example.com',
            LOG_LEVEL: 'WARN', // an attempt that fails says why (the assertion's message)
            POWERTOOLS_TRACE_ENABLED: 'false',
            POWERTOOLS_METRICS_DISABLED: 'true',
          },
          timeout: 120_000,
        },
      );
      const { node, result } = JSON.parse(readFileSync(resultFile, 'utf8'));
      expect(node).toMatch(/^v22\./);
      expect(result, logs).toEqual({ batchItemFailures: [] });
      expect(await getMailJob(job!.jobId)).toMatchObject({ state: 'sent', attempts: 1 });
      const [eml] = readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
      const message = await simpleParser(readFileSync(path.join(mailDir, eml!)));
      const pdf = message.attachments[0]!;
      expect(pdf.contentType).toBe('application/pdf');
      expect(pdfText(pdf.content)).toContain(invoice.reference_code);
      expect(message.text).toContain(invoice.hosted_url.replace(/^http:\/\/[^/]+/, 'https://api.example.com'));
    } finally {
      if (saved === undefined) delete process.env.MAIL_FROM;
      else process.env.MAIL_FROM = saved;
      resetConfig();
      await ses.stop();
    }
  }, 180_000);
});
