/**
 * A request's body as the local servers read it (the API runtime, the local SES and Paystack servers): up to a limit,
 * past which the rest is drained, not kept.
 */
import type { IncomingMessage } from 'node:http';

/** The body, or `too_large` when it exceeds `limit` bytes. */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolveBody(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The body; one over `limit` bytes is a failure of the request (the local SES and Paystack servers answer it so). */
export async function readBodyWithin(req: IncomingMessage, limit: number): Promise<Buffer> {
  const body = await readRequestBody(req, limit);
  if (body === 'too_large') throw new Error(`request body over ${limit} bytes`);
  return body;
}
