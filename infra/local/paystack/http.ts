/**
 * The local Paystack server's HTTP plumbing: request bodies (JSON or form-encoded, as Paystack takes both), Paystack's
 * answers (`{"status":true,"message":…,"data":…}`) and refusals (`{"status":false,"message":…}`), HTML pages and
 * redirects.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyWithin } from '../request-body.ts';
import type { Json } from './state.ts';

const MAX_BODY_BYTES = 1024 * 1024;

export type Fields = Record<string, unknown>;

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The path's captured parts, in order. */
  params: string[];
  fields: Fields;
}

/** A refusal as Paystack words it: the HTTP status, `message`, and its extra fields (`meta`, `type`, `code`). */
export class PaystackRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Json = {},
  ) {
    super(message);
  }
}

/** A 400 `validation_error`, with Paystack's `meta.nextStep` when its error list gives one. */
export function invalid(message: string, nextStep?: string, code?: string): PaystackRefusal {
  return new PaystackRefusal(400, message, {
    ...(nextStep ? { meta: { nextStep } } : {}),
    type: 'validation_error',
    ...(code ? { code } : {}),
  });
}

export function notFound(message: string): PaystackRefusal {
  return new PaystackRefusal(404, message);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function answer(res: ServerResponse, message: string, data: unknown, status = 200): void {
  sendJson(res, status, { status: true, message, data });
}

export function refuse(res: ServerResponse, refusal: PaystackRefusal): void {
  sendJson(res, refusal.status, { status: false, message: refusal.message, ...refusal.extra });
}

/** A page of this server: no script, inline styles only, nothing from another origin. */
export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'cache-control': 'no-store',
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0 }).end();
}

export const readBody = (req: IncomingMessage): Promise<Buffer> => readBodyWithin(req, MAX_BODY_BYTES);

/** The body's fields: JSON (an object) or form-encoded; an empty body has none. */
export function parseFields(body: Buffer, contentType: string | undefined): Fields {
  const text = body.toString('utf8');
  if (text.trim() === '') return {};
  if ((contentType ?? '').includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('Invalid JSON body');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('Invalid JSON body');
  return parsed as Fields;
}

/** A field given as a string or a number, as text; absent or empty → undefined. */
export function textField(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An amount in the currency's smallest unit: a positive whole number, given as a number or a numeric string. */
export function amountField(fields: Fields, name = 'amount'): number | undefined {
  const text = textField(fields, name);
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const amount = Number(text);
  return Number.isSafeInteger(amount) && amount > 0 ? amount : undefined;
}

/** Metadata as Paystack keeps it: an object as given, a JSON object's text parsed, anything else as given; none → "". */
export function metadataField(fields: Fields): unknown {
  const value = fields.metadata;
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' ? parsed : value;
  } catch {
    return value;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c as '&'],
  );
}
