/**
 * The local SES server of `npm start` and the tests (docs/running-locally.md "E-mail"): the npm package
 * `aws-ses-v2-local` (SESv2 `SendEmail` with raw or simple content, a web inbox at `/`, `GET /store`) behind a small
 * front on loopback that adds what SES does and the package does not:
 *
 * - every accepted message is kept as one `.eml` file (RFC 5322, attachments included) under DATA_DIR/mail — for raw
 *   content the exact bytes the mailer sent;
 * - the mailbox simulator's reports (bounce, complaint) reach `onNotice`, the same handler the stage's configuration
 *   set feeds (infra/local/ses-simulator.ts), a moment after the acceptance, as SES sends them;
 * - a recipient in the reserved `.invalid` domain is refused with 400 `MessageRejected` (the local permanent rejection);
 * - `POST /_local/faults` `{"kind":"throttle"|"server_error","count":N}` makes the next N sends answer 429
 *   `TooManyRequestsException` or 500, as SES does under throttling or an outage (tests of the retry path);
 *   `{"kind":"slow_answer","count":N,"delay_ms":M}` accepts and keeps the next N messages at once and answers each
 *   M ms later, as a slow network does (tests of a stop or crash between SES accepting and the mailer's record).
 *
 * The SDK talks to the front exactly as to SES (SES_ENDPOINT); the inbox and `/store` are the package's, proxied.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sesV2Local from 'aws-ses-v2-local';
import type { SesEventBridgeEvent } from '../../shared/store/mail.ts';
import { readBodyWithin } from './request-body.ts';
import { rejectedRecipients, type SendEmailRequest, simulatedEvents } from './ses-simulator.ts';

export interface LocalSesOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Where each accepted message is kept as a `.eml` file (DATA_DIR/mail). */
  mailDir: string;
  /** SES's report about an accepted message (the mail-events handler). */
  onNotice: (event: SesEventBridgeEvent) => Promise<unknown>;
  /** How long after the acceptance a report is sent. Default 200 ms. */
  noticeDelayMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export interface LocalSes {
  /** The endpoint the SESv2 client uses, and where the inbox is read in a browser. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

type Fault = { kind: 'throttle' | 'server_error' } | { kind: 'slow_answer'; delayMs: number };
const SEND_PATH = '/v2/email/outbound-emails';
const MAX_BODY_BYTES = 50 * 1024 * 1024;
/** Tries of a report whose handler failed (EventBridge retries too), with growing pauses. */
const NOTICE_TRIES = 6;

type StartInner = (config: { port: number; host: string }) => Promise<Server>;
const startInner: StartInner =
  typeof sesV2Local === 'function' ? sesV2Local : (sesV2Local as unknown as { default: StartInner }).default;

export async function startLocalSes(options: LocalSesOptions): Promise<LocalSes> {
  const host = options.host ?? '127.0.0.1';
  const inner = await startInner({ port: 0, host: '127.0.0.1' });
  const innerPort = (inner.address() as AddressInfo).port;
  const faults: Fault[] = [];
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''));
  const notices = noticeSender(options, log);
  mkdirSync(options.mailDir, { recursive: true });

  const front = createServer(async (req, res) => {
    try {
      if (req.method === 'POST' && req.url === '/_local/faults') return await setFaults(req, res, faults);
      if (req.method === 'POST' && req.url === SEND_PATH) {
        const body = await readBody(req);
        const fault = faults.shift();
        if (fault && fault.kind !== 'slow_answer')
          return sesError(
            res,
            fault.kind === 'throttle' ? 429 : 500,
            faultName(fault),
            'Injected by the local SES server.',
          );
        const answerDelayMs = fault?.kind === 'slow_answer' ? fault.delayMs : 0;
        const context = { innerPort, mailDir: options.mailDir, notify: notices.notify, answerDelayMs };
        return await send(req, res, body, context);
      }
      proxy(req, res, innerPort, req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req));
    } catch (error) {
      log('Local SES: request failed.', error);
      if (!res.headersSent) sesError(res, 500, 'InternalFailure', 'The local SES server failed.');
    }
  });
  // A port in use: the inner server is stopped too, so that a retry on another port leaves nothing behind.
  await listenOn(front, options.port, host).catch(async (error: unknown) => {
    await close(inner);
    throw error;
  });
  const port = (front.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    async stop() {
      notices.cancel();
      await Promise.all([close(front), close(inner)]);
    },
  };
}

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** SES's reports, sent a moment after the acceptance and retried with growing pauses while the handler fails. */
function noticeSender(options: LocalSesOptions, log: NonNullable<LocalSesOptions['log']>) {
  const timers = new Set<NodeJS.Timeout>();
  const notify = (event: SesEventBridgeEvent, tries = 0) => {
    const timer = setTimeout(
      async () => {
        timers.delete(timer);
        try {
          await options.onNotice(event);
        } catch (error) {
          if (tries + 1 < NOTICE_TRIES) notify(event, tries + 1);
          else log('Local SES: a bounce or complaint report could not be recorded; giving up.', error);
        }
      },
      (options.noticeDelayMs ?? 200) * 2 ** tries,
    );
    timers.add(timer);
  };
  return {
    notify,
    cancel() {
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

const faultName = (fault: Fault) => (fault.kind === 'throttle' ? 'TooManyRequestsException' : 'InternalFailure');

async function setFaults(req: IncomingMessage, res: ServerResponse, faults: Fault[]): Promise<void> {
  const fault = parseFault((await readBody(req)).toString('utf8'));
  if (!fault)
    return sesError(
      res,
      400,
      'BadRequestException',
      'Send {"kind":"throttle"|"server_error","count":N} or {"kind":"slow_answer","count":N,"delay_ms":M}.',
    );
  faults.length = 0;
  for (let i = 0; i < fault.count; i++) faults.push(fault.fault);
  res.writeHead(204).end();
}

function parseFault(text: string): { fault: Fault; count: number } | undefined {
  let body: { kind?: unknown; count?: unknown; delay_ms?: unknown };
  try {
    body = JSON.parse(text || '{}');
  } catch {
    return undefined;
  }
  const { kind, count, delay_ms: delayMs } = body;
  if (!Number.isInteger(count) || (count as number) < 0) return undefined;
  if (kind === 'throttle' || kind === 'server_error') return { fault: { kind }, count: count as number };
  if (kind === 'slow_answer' && Number.isInteger(delayMs) && (delayMs as number) >= 0)
    return { fault: { kind, delayMs: delayMs as number }, count: count as number };
  return undefined;
}

interface SendContext {
  innerPort: number;
  mailDir: string;
  notify: (event: SesEventBridgeEvent) => void;
  /** How long the answer waits after the message was accepted and kept (the `slow_answer` fault; else 0). */
  answerDelayMs: number;
}

/** SendEmail: refuse a `.invalid` recipient, else let the package accept it, keep the `.eml`, schedule the reports. */
async function send(req: IncomingMessage, res: ServerResponse, body: Buffer, context: SendContext): Promise<void> {
  const parsed = JSON.parse(body.toString('utf8')) as SendEmailRequest & { Content?: { Raw?: { Data?: string } } };
  const refused = rejectedRecipients(parsed);
  if (refused.length > 0)
    return sesError(res, 400, 'MessageRejected', `Email address is not deliverable: ${refused.join(', ')}`);
  const answer = await forward(req, context.innerPort, body);
  if (answer.status !== 200) return void res.writeHead(answer.status, answer.headers).end(answer.body);
  const messageId = String((JSON.parse(answer.body.toString('utf8')) as { MessageId?: string }).MessageId);
  const raw = parsed.Content?.Raw?.Data
    ? Buffer.from(parsed.Content.Raw.Data, 'base64')
    : await innerEml(context.innerPort, messageId);
  keepEml(context.mailDir, messageId, raw);
  for (const event of simulatedEvents(parsed, messageId)) context.notify(event);
  if (context.answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, context.answerDelayMs));
  res.writeHead(answer.status, answer.headers).end(answer.body);
}

/** One `.eml` per message, written whole (a temporary file renamed), named so that a listing sorts by time. */
function keepEml(mailDir: string, messageId: string, raw: Buffer): void {
  const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.replace(/[^\w.-]/g, '_')}.eml`;
  const temporary = join(mailDir, `.${name}.tmp`);
  writeFileSync(temporary, raw);
  renameSync(temporary, join(mailDir, name));
}

/** A simple-content message as the package renders it (RFC 5322 with its attachments). */
async function innerEml(innerPort: number, messageId: string): Promise<Buffer> {
  const response = await fetch(
    `http://127.0.0.1:${innerPort}/get-emlContent?messageId=${encodeURIComponent(messageId)}`,
  );
  const { body } = (await response.json()) as { body?: { type?: string; data?: number[] } | string };
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(body?.data ?? []);
}

function sesError(res: ServerResponse, status: number, type: string, message: string): void {
  const body = JSON.stringify({ __type: type, message });
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type }).end(body);
}

const readBody = (req: IncomingMessage): Promise<Buffer> => readBodyWithin(req, MAX_BODY_BYTES);

function forward(req: IncomingMessage, port: number, body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const headers = { ...req.headers, host: `127.0.0.1:${port}`, 'content-length': String(body.length) };
    const out = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const type = answer.headers['content-type'];
        resolve({
          status: answer.statusCode ?? 502,
          headers: type ? { 'content-type': type } : {},
          body: Buffer.concat(chunks),
        });
      });
      answer.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

/** Anything else (the inbox at `/`, `/store`, templates…) is the package's. */
function proxy(req: IncomingMessage, res: ServerResponse, port: number, body: Buffer | undefined): void {
  const headers = { ...req.headers, host: `127.0.0.1:${port}` };
  const out = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
  });
  out.end(body);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
