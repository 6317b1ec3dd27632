/**
 * Request body rules (SPEC §1, §9) applied before JSON parsing:
 * - over 64 KiB (decoded) → 413;
 * - JSON (`application/json`, `+json`, any charset), no content type and `text/plain` are parsed as JSON
 *   (by @middy/http-json-body-parser; its "malformed JSON" 415 becomes our 400 `invalid_json`);
 * - `application/x-www-form-urlencoded` with PHP bracket notation is parsed by `qs` into the same object
 *   (except a body that is a JSON object, which curl's `-d '{…}'` sends with the form type: parsed as JSON);
 * - anything else → 415.
 */
// qs's parser alone: the package entry also loads its stringifier, whose side-channel dependency pulls ~35 KB
// (get-intrinsic, object-inspect, …) into every bundle and evaluates it at cold start. Same function as `qs.parse`.
import parseQuery from 'qs/lib/parse.js';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '../errors';

export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/(.+\+)?json$/;

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export type BodyKind = 'json' | 'form';

/** Checks size and content type; rewrites the event so the JSON parser sees a JSON body, or parses a form body. */
export function prepareBody(event: APIGatewayProxyEventV2, maxBytes = MAX_BODY_BYTES): BodyKind {
  const headers = (event.headers ??= {});
  const raw = event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (raw.length > maxBytes) {
    throw new ApiError('payload_too_large', `The request body must be at most ${maxBytes / 1024} KiB.`);
  }
  const type = mediaType(headers['content-type']);
  if (type === '' || type === 'text/plain' || JSON_TYPE.test(type)) {
    headers['content-type'] = 'application/json';
    return 'json';
  }
  if (type === 'application/x-www-form-urlencoded') {
    const text = raw.toString('utf8');
    if (text.trimStart().startsWith('{')) {
      headers['content-type'] = 'application/json';
      return 'json';
    }
    const parsed = parseQuery(text, {
      allowPrototypes: false,
      depth: 5,
      arrayLimit: 100,
      parameterLimit: 2000,
      charset: 'utf-8',
    });
    (event as { body: unknown }).body = parsed;
    event.isBase64Encoded = false;
    return 'form';
  }
  throw new ApiError('unsupported_media_type', 'Unsupported content type. Send application/json (or application/x-www-form-urlencoded).');
}
