/**
 * The request tools of the OpenAPI example capture (scripts/capture-examples.ts and the files it hands them to): send a
 * request to the local server, capture its response as an example of a documented status, inject a DynamoDB fault
 * for the outcomes only a failing or racing database produces (500, 503, 504, the in-flight 409), and the error cases
 * every route shares.
 */
import { type DynamoCall, dynamoHooks } from '../infra/tools/dynamo-hooks.ts';
import type { CapturedExamples, Example } from '../shared/openapi/document.ts';
import { ROUTES, type RouteName } from '../shared/routes.ts';

type Body = Record<string, any>;

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

export interface CaptureTools {
  capture(route: RouteName | 'any', status: number, name: string, summary: string, options: Send): Promise<Body>;
  send(route: RouteName | 'any', options: Send): Promise<{ status: number; body: Body }>;
  withFault<T>(command: string, fault: (call: DynamoCall) => Error, action: () => Promise<T>): Promise<T>;
  inFlight(call: DynamoCall): Error;
  commonErrors(
    route: RouteName,
    valid: Body,
    invalid: Body,
    writeCommand: string,
    extra?: Send,
    readCommand?: string,
  ): Promise<void>;
  /** `readCommand`: the read a write decides on (a reversal's is a snapshot, TransactGetItems). */
  faultErrors(route: RouteName, request: Send, writeCommand: string, readCommand?: string): Promise<void>;
  /** Today as MM/DD/YYYY in the demo account's time zone. */
  today: string;
}

export const awsError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra });

export interface CaptureTarget {
  /** The local server. */
  baseUrl: string;
  /** A local server whose invocations have 2.5 s: a lost commit answer runs out of time there (504). */
  shortBudgetUrl: string;
  secretKey: string;
  today: string;
}

/** The tools, bound to one capture: its servers, key and the responses it collects (arrow functions, so destructurable). */
export class CaptureSession implements CaptureTools {
  readonly responses: CapturedExamples['responses'] = {};
  readonly today: string;

  constructor(private readonly target: CaptureTarget) {
    this.today = target.today;
  }

  send = async (route: RouteName | 'any', options: Send) => {
    const definition = ROUTES.find((r) => r.name === route);
    const headers: Record<string, string> = { ...options.headers };
    if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    if (options.key !== null) headers.authorization = `Bearer ${options.key ?? this.target.secretKey}`;
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    const response = await fetch(`${options.baseUrl ?? this.target.baseUrl}${options.path ?? definition!.path}`, {
      method: options.method ?? definition?.method ?? 'POST',
      headers,
      body,
    });
    return { status: response.status, body: (await response.json()) as Body };
  };

  /** Sends a request, checks it got `status`, and keeps the response body as an example. */
  capture = async (route: RouteName | 'any', status: number, name: string, summary: string, options: Send) => {
    const result = await this.send(route, options);
    if (result.status !== status)
      throw new Error(`${route} ${name}: expected ${status}, got ${result.status}: ${JSON.stringify(result.body)}`);
    const byStatus = (this.responses[route] ??= {});
    (byStatus[String(status)] ??= {})[name] = { summary, value: result.body } satisfies Example;
    return result.body;
  };

  /** Runs `action` with a DynamoDB fault injected into `command` calls. */
  withFault = async <T>(command: string, fault: (call: DynamoCall) => Error, action: () => Promise<T>): Promise<T> => {
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
  };

  /** The transaction conflict DynamoDB answers while the same Idempotency-Key's first request still runs. */
  inFlight = (call: DynamoCall) => {
    const items = (call.input.TransactItems as unknown[]) ?? [];
    return awsError('TransactionCanceledException', {
      CancellationReasons: items.map((_, i) => ({ Code: i === items.length - 1 ? 'TransactionConflict' : 'None' })),
    });
  };

  /** 400 (fields, JSON), 413, 415 and the fault outcomes of a route that reads a body. */
  commonErrors = async (
    route: RouteName,
    valid: Body,
    invalid: Body,
    writeCommand: string,
    extra: Send = {},
    readCommand = 'BatchGetItemCommand',
  ) => {
    await this.capture(route, 400, 'validation_failed', 'Invalid fields', { ...extra, body: invalid });
    await this.capture(route, 400, 'invalid_json', 'Malformed JSON', { ...extra, body: '{"period": ' });
    await this.capture(route, 413, 'payload_too_large', 'Body over 64 KiB', {
      ...extra,
      body: { padding: 'x'.repeat(70 * 1024) },
    });
    await this.capture(route, 415, 'unsupported_media_type', 'XML body', {
      ...extra,
      contentType: 'application/xml',
      body: '<request/>',
    });
    await this.faultErrors(route, { ...extra, body: valid }, writeCommand, readCommand);
  };

  /** 401 and the injected-fault outcomes (500, 504 on a transaction, 503) of any route. */
  faultErrors = async (route: RouteName, request: Send, writeCommand: string, readCommand = 'BatchGetItemCommand') => {
    await this.capture(route, 401, 'invalid_api_key', 'Missing or invalid key', { ...request, key: null });
    // A bug on a read (a failed transaction is not a plain 500: its outcome is unknown, see below).
    const failingRead = writeCommand === 'TransactWriteItemsCommand' ? readCommand : writeCommand;
    await this.withFault(
      failingRead,
      () => new Error('simulated bug'),
      () => this.capture(route, 500, 'internal_error', 'Unexpected failure', request),
    );
    if (writeCommand === 'TransactWriteItemsCommand') {
      // Every answer to the transaction lost until the deadline of a function with 2.5 s left.
      await this.withFault(
        writeCommand,
        () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        () =>
          this.capture(route, 504, 'outcome_unknown', 'Commit not confirmed in time', {
            ...request,
            baseUrl: this.target.shortBudgetUrl,
          }),
      );
    }
    await this.withFault(
      writeCommand,
      () => awsError('ThrottlingException'),
      () => this.capture(route, 503, 'service_unavailable', 'Database throttled', request),
    );
  };
}
