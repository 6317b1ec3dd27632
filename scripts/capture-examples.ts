/**
 * Captures the OpenAPI examples from real responses: starts an in-memory DynamoDB Local and the local
 * HTTP server (the same handlers Lambda runs), sends one request per documented outcome of every route,
 * and returns requests and responses as `shared/openapi/examples.json` holds them. Outcomes that need a
 * failing or racing database (500, 503, the in-flight 409) are produced by DynamoDB faults injected
 * through `dynamoHooks`, so their bodies still come from the real error path.
 *
 * Run through `npm run openapi -- --capture-examples` (which sets LOG_LEVEL and disables metrics first).
 */
import type { AddressInfo } from 'node:net';
import { usDate } from '../infra/local/banner.ts';
import { ensureTable, startDynamoDbLocal } from '../infra/local/dynamodb-local.ts';
import { createLocalServer } from '../infra/local/server.ts';
import { useLocalDynamoDb } from '../infra/local/settings.ts';
import { type DynamoCall, dynamoHooks } from '../infra/tools/dynamo-hooks.ts';
import type { CapturedExamples, Example } from '../shared/openapi/document.ts';
import { ROUTES, type RouteName } from '../shared/routes.ts';
import { createAccount } from '../shared/store/accounts.ts';
import { captureMailExamples } from './capture-mail-examples.ts';
import { captureResourceExamples } from './capture-resource-examples.ts';

export interface Send {
  body?: unknown;
  /** Defaults to application/json; null sends none. */
  contentType?: string | null;
  key?: string | null;
  headers?: Record<string, string>;
  method?: string;
  path?: string;
  baseUrl?: string;
}

const awsError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra });

export async function captureExamples(): Promise<CapturedExamples> {
  const database = await startDynamoDbLocal();
  const server = createLocalServer({ logger: {} });
  const shortBudgetServer = createLocalServer({ logger: {}, timeoutMs: 2_500 });
  try {
    const tableName = 'invoicing-examples';
    await ensureTable(database.endpoint, tableName);
    useLocalDynamoDb(database.endpoint, tableName);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise<void>((r) => shortBudgetServer.listen(0, '127.0.0.1', () => r()));
    const shortBudgetUrl = `http://127.0.0.1:${(shortBudgetServer.address() as AddressInfo).port}`;

    const { secretKey } = await createAccount({ name: 'Obi Ventures Ltd' });
    const today = usDate(new Date(), 'Africa/Lagos');
    const responses: CapturedExamples['responses'] = {};

    async function send(route: RouteName | 'any', options: Send) {
      const definition = ROUTES.find((r) => r.name === route);
      const headers: Record<string, string> = { ...options.headers };
      if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
      if (options.key !== null) headers.authorization = `Bearer ${options.key ?? secretKey}`;
      const body =
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body);
      const response = await fetch(`${options.baseUrl ?? baseUrl}${options.path ?? definition!.path}`, {
        method: options.method ?? definition?.method ?? 'POST',
        headers,
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    }

    /** Sends a request, checks it got `status`, and keeps the response body as an example. */
    async function capture(route: RouteName | 'any', status: number, name: string, summary: string, options: Send) {
      const result = await send(route, options);
      if (result.status !== status)
        throw new Error(`${route} ${name}: expected ${status}, got ${result.status}: ${JSON.stringify(result.body)}`);
      const byStatus = (responses[route] ??= {});
      (byStatus[String(status)] ??= {})[name] = { summary, value: result.body } satisfies Example;
      return result.body;
    }

    /** Runs `action` with a DynamoDB fault injected into `command` calls. */
    async function withFault<T>(
      command: string,
      fault: (call: DynamoCall) => Error,
      action: () => Promise<T>,
    ): Promise<T> {
      const remove = dynamoHooks.add({
        before(call) {
          if (call.command === command) throw fault(call);
        },
      });
      try {
        return await action();
      } finally {
        remove();
      }
    }

    const inFlight = (call: DynamoCall) => {
      const items = (call.input.TransactItems as unknown[]) ?? [];
      return awsError('TransactionCanceledException', {
        CancellationReasons: items.map((_, i) => ({ Code: i === items.length - 1 ? 'TransactionConflict' : 'None' })),
      });
    };

    async function commonErrors(
      route: RouteName,
      validBody: Record<string, unknown>,
      invalidBody: Record<string, unknown>,
      writeCommand: string,
      extra: Send = {},
    ) {
      await capture(route, 400, 'validation_failed', 'Invalid fields', { ...extra, body: invalidBody });
      await capture(route, 400, 'invalid_json', 'Malformed JSON', { ...extra, body: '{"period": ' });
      await capture(route, 413, 'payload_too_large', 'Body over 64 KiB', {
        ...extra,
        body: { padding: 'x'.repeat(70 * 1024) },
      });
      await capture(route, 415, 'unsupported_media_type', 'XML body', {
        ...extra,
        contentType: 'application/xml',
        body: '<request/>',
      });
      await faultErrors(route, { ...extra, body: validBody }, writeCommand);
    }

    /** 401 and the injected-fault outcomes (500, 504 on a transaction, 503) of any route. */
    async function faultErrors(route: RouteName, request: Send, writeCommand: string) {
      await capture(route, 401, 'invalid_api_key', 'Missing or invalid key', { ...request, key: null });
      // A bug on a read (a failed transaction is not a plain 500: its outcome is unknown, see below).
      const failingRead = writeCommand === 'TransactWriteItemsCommand' ? 'BatchGetItemCommand' : writeCommand;
      await withFault(
        failingRead,
        () => new Error('simulated bug'),
        () => capture(route, 500, 'internal_error', 'Unexpected failure', request),
      );
      if (writeCommand === 'TransactWriteItemsCommand') {
        // Every answer to the transaction lost until the deadline of a function with 2.5 s left.
        await withFault(
          writeCommand,
          () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          () =>
            capture(route, 504, 'outcome_unknown', 'Commit not confirmed in time', {
              ...request,
              baseUrl: shortBudgetUrl,
            }),
        );
      }
      await withFault(
        writeCommand,
        () => awsError('ThrottlingException'),
        () => capture(route, 503, 'service_unavailable', 'Database throttled', request),
      );
    }

    // POST /invoices
    const newClientInvoice = {
      client: {
        first_name: 'Ada',
        last_name: 'Obi',
        email: 'ada@example.com',
        phone: '+2348012345678',
        company_name: 'Obi Ventures',
      },
      due_date: '12/30/2030',
      fee_bearer: 'client',
      items: [
        { item: 'Website Design', description: '5 pages', unit_cost: '50,000.00', quantity: '1' },
        { item: 'Hosting', description: '12 months', unit_cost: '2500.5', quantity: 12 },
      ],
    };
    const created = await capture('add-invoice', 201, 'new_client', 'For a new client', { body: newClientInvoice });
    const invoice = created.data;
    const clientId = String(invoice.client_id);
    const optionsInvoice = {
      client_id: clientId,
      due_date: '1/15/2031',
      fee_bearer: 'account',
      items: [{ item: 'Consulting', description: 'Two days of advisory work', unit_cost: 75000, quantity: '2' }],
      recipient: 'wallet',
      recipient_id: 'WAL-0042',
      merchant_ref: 'INV-2030-0001',
      metadata: { order_id: 'A-1001', priority: 2 },
      card_token: 'tok_4f9a8b7c6d5e1234',
    };
    await capture('add-invoice', 201, 'existing_client_with_options', 'For an existing client, with optional fields', {
      body: optionsInvoice,
    });
    await capture('add-invoice', 403, 'tokenization_not_enabled', 'tokenize on an account without tokenization', {
      body: { ...newClientInvoice, tokenize: 'true' },
    });
    await capture('add-invoice', 404, 'client_not_found', 'Unknown client_id', {
      body: { ...optionsInvoice, client_id: '999999', merchant_ref: undefined },
    });
    await capture('add-invoice', 409, 'duplicate_merchant_ref', 'merchant_ref already used', { body: optionsInvoice });
    await withFault('TransactWriteItemsCommand', inFlight, () =>
      capture('add-invoice', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', {
        body: newClientInvoice,
        headers: { 'idempotency-key': 'order-1001-invoice' },
      }),
    );
    await capture('add-invoice', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
      body: newClientInvoice,
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    await send('add-invoice', { body: newClientInvoice, headers: { 'idempotency-key': 'order-1002-invoice' } });
    await capture('add-invoice', 422, 'idempotency_key_reused', 'Same Idempotency-Key, different body', {
      body: { ...newClientInvoice, due_date: '12/31/2030' },
      headers: { 'idempotency-key': 'order-1002-invoice' },
    });
    await commonErrors(
      'add-invoice',
      newClientInvoice,
      {
        client: { ...newClientInvoice.client, email: 'not-an-email' },
        due_date: '02/30/2030',
        fee_bearer: 'client',
        items: [{ item: 'Hosting', description: '12 months', unit_cost: '10.005', quantity: '1' }],
      },
      'TransactWriteItemsCommand',
    );

    // POST /payments
    const payment = {
      reference_code: invoice.reference_code,
      date: today,
      amount: '20,000.00',
      channel: 'BankTransfer',
    };
    await capture('add-payment', 201, 'partial_payment', 'A partial payment', { body: payment });
    await capture('add-payment', 404, 'invoice_not_found', 'Unknown reference_code', {
      body: { ...payment, reference_code: 'AAAAAAAAAAAAAAAAAAAA' },
    });
    await capture('add-payment', 409, 'amount_exceeds_balance', 'More than amount_due', {
      body: { ...payment, amount: '1,000,000.00' },
    });
    await withFault('TransactWriteItemsCommand', inFlight, () =>
      capture('add-payment', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', {
        body: payment,
        headers: { 'idempotency-key': 'payment-7781' },
      }),
    );
    await capture('add-payment', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
      body: payment,
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    await send('add-payment', { body: { ...payment, amount: '1000' }, headers: { 'idempotency-key': 'payment-7782' } });
    await capture('add-payment', 422, 'idempotency_key_reused', 'Same Idempotency-Key, different body', {
      body: { ...payment, amount: '2000' },
      headers: { 'idempotency-key': 'payment-7782' },
    });
    const rest = Number(invoice.total) - 20_000 - 1_000;
    await send('add-payment', { body: { ...payment, amount: rest.toFixed(2), channel: 'Cash' } });
    await capture('add-payment', 409, 'invoice_already_paid', 'Invoice fully paid', { body: payment });
    const unpaid = (await send('add-invoice', { body: { ...newClientInvoice, due_date: '06/30/2031' } })).body.data;
    await commonErrors(
      'add-payment',
      { ...payment, reference_code: unpaid.reference_code },
      { reference_code: invoice.reference_code, date: '13/01/2025', amount: '-5', channel: 'Card' },
      'TransactWriteItemsCommand',
    );

    // POST /payments/history
    const history = { period: 'month', limit: 2 };
    const page = await capture('payment-history', 200, 'first_page', 'First page of this month (limit 2)', {
      body: history,
    });
    await capture('payment-history', 200, 'custom_range', 'A custom range with no payments', {
      body: { period: 'custom', start: '01/01/2024', end: '31/01/2024' },
    });
    await capture('payment-history', 400, 'invalid_period', 'custom without end', {
      body: { period: 'custom', start: '01/01/2024' },
    });
    await capture('payment-history', 400, 'invalid_cursor', 'Cursor of another period', {
      body: { period: 'today', cursor: page.data.next_cursor },
    });
    await commonErrors('payment-history', history, { period: 'month', limit: 0 }, 'QueryCommand');

    const tools = { capture, send, withFault, inFlight, commonErrors, faultErrors, today };
    const more = await captureResourceExamples(tools);
    const mail = await captureMailExamples(tools);

    // The local runtime's routing errors (deployed, API Gateway answers these itself).
    await capture('any', 404, 'route_not_found', 'Unknown path', { path: '/invoice', body: newClientInvoice });
    await capture('any', 405, 'method_not_allowed', 'Known path, other method', { path: '/invoices', method: 'GET' });

    const form = new URLSearchParams({
      'client[first_name]': 'Ada',
      'client[last_name]': 'Obi',
      'client[email]': 'ada@example.com',
      'client[phone]': '+2348012345678',
      due_date: '12/30/2030',
      fee_bearer: 'client',
      'items[0][item]': 'Website Design',
      'items[0][description]': '5 pages',
      'items[0][unit_cost]': '50,000.00',
      'items[0][quantity]': '1',
    }).toString();
    await capture('add-invoice', 201, 'form_encoded', 'The same invoice sent form-encoded (PHP SDKs)', {
      contentType: 'application/x-www-form-urlencoded',
      body: form,
    });

    return {
      requests: {
        'add-invoice': { json: newClientInvoice, form },
        'add-payment': { json: payment, form: new URLSearchParams(payment).toString() },
        'payment-history': { json: history, form: 'period=month&limit=2' },
        ...more.requests,
        ...mail.requests,
      },
      responses,
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    shortBudgetServer.closeAllConnections();
    if (shortBudgetServer.listening) await new Promise<void>((r) => shortBudgetServer.close(() => r()));
    await database.stop();
  }
}
