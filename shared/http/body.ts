/**
 * Request body rules (docs/api.md "Request bodies", "Limits") applied before JSON parsing:
 * - over 64 KiB (decoded) → 413;
 * - JSON (`application/json`, `+json`, any charset), no content type and `text/plain` are parsed as JSON
 *   (by @middy/http-json-body-parser; its "malformed JSON" 415 becomes our 400 `invalid_json`);
 * - `application/x-www-form-urlencoded` with PHP bracket notation is parsed by `qs` into the same object
 *   (except a body that is a JSON object, which curl's `-d '{…}'` sends with the form type: parsed as JSON);
 * - anything else → 415;
 * - a body that is not valid UTF-8 → 400 (`invalid_json`, or `validation_failed` for a form): never stored as U+FFFD;
 * - a form body `qs` cannot represent faithfully (too many parameters, too deep, percent-encoded bytes that are
 *   not UTF-8) → 400 `validation_failed`, never a silently truncated or reshaped object.
 */
// qs's parser alone: the package entry also loads its stringifier, whose side-channel dependency pulls ~35 KB
// (get-intrinsic, object-inspect, …) into every bundle and evaluates it at cold start. Same function as `qs.parse`.

import { isUtf8 } from 'node:buffer';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import parseQuery from 'qs/lib/parse.js';
import { invalidFields } from '../domain/refusal.ts';
import { ApiError, apiErrorOf } from './errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/(.+\+)?json$/;

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export type BodyKind = 'json' | 'form';

/** Checks size and content type; rewrites the event so the JSON parser sees a JSON body, or parses a form body. */
export function prepareBody(event: APIGatewayProxyEventV2, maxBytes = MAX_BODY_BYTES): BodyKind {
  const headers = (event.headers ??= {});
  const raw =
    event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (raw.length > maxBytes) {
    throw new ApiError('payload_too_large', `The request body must be at most ${maxBytes / 1024} KiB.`);
  }
  const type = mediaType(headers['content-type']);
  if (type === '' || type === 'text/plain' || JSON_TYPE.test(type)) {
    if (!isUtf8(raw)) throw new ApiError('invalid_json', 'The request body is not valid UTF-8 JSON.');
    headers['content-type'] = 'application/json';
    return 'json';
  }
  if (type === 'application/x-www-form-urlencoded') {
    if (!isUtf8(raw)) throw formError('the form body must be valid UTF-8');
    const text = raw.toString('utf8');
    if (text.trimStart().startsWith('{')) {
      headers['content-type'] = 'application/json';
      return 'json';
    }
    (event as { body: unknown }).body = parseForm(text);
    event.isBase64Encoded = false;
    return 'form';
  }
  throw new ApiError(
    'unsupported_media_type',
    'Unsupported content type. Send application/json (or application/x-www-form-urlencoded).',
  );
}

const formError = (message: string) => apiErrorOf(invalidFields([{ code: 'invalid_value', field: null, message }]));

/** Percent-decoding that refuses bytes which are not UTF-8 (qs's own decoder would keep `%FF` as text). */
function strictDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw formError('the form body has percent-encoded bytes that are not valid UTF-8');
  }
}

/** Parses PHP bracket notation; a body beyond qs's limits is refused, never cut down to what fits. */
export function parseForm(text: string): unknown {
  try {
    return parseQuery(text, {
      allowPrototypes: false,
      depth: 5,
      strictDepth: true,
      arrayLimit: 100,
      parameterLimit: 2000,
      throwOnLimitExceeded: true,
      charset: 'utf-8',
      decoder: strictDecode,
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof RangeError) {
      throw formError(
        `the form body exceeds what can be read faithfully (at most 2000 parameters, nesting depth 5, 100 array items): ${error.message}`,
      );
    }
    throw error;
  }
}
