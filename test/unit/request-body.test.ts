/** The local servers' request bodies (infra/local/request-body.ts): whole up to the limit, drained past it. */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBodyWithin, readRequestBody } from '../../infra/local/request-body.ts';

/** A request whose body arrives in `chunks`. */
function requestOf(chunks: string[]): IncomingMessage {
  const stream = new PassThrough();
  for (const chunk of chunks) stream.write(Buffer.from(chunk));
  stream.end();
  return stream as unknown as IncomingMessage;
}

describe('readRequestBody', () => {
  it('is the chunks joined, up to the limit itself', async () => {
    expect(String(await readRequestBody(requestOf(['ab', 'cd', 'e']), 5))).toBe('abcde');
  });

  it('is too_large one byte past the limit, and reads the request to its end', async () => {
    const req = requestOf(['abc', 'def']);
    expect(await readRequestBody(req, 5)).toBe('too_large');
    expect(req.readableEnded).toBe(true);
  });
});

describe('readBodyWithin', () => {
  it('is the body within the limit, and fails past it', async () => {
    expect(String(await readBodyWithin(requestOf(['{}']), 2))).toBe('{}');
    await expect(readBodyWithin(requestOf(['{}', '!']), 2)).rejects.toThrow('request body over 2 bytes');
  });
});
