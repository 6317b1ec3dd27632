/** A minimal keep-alive HTTP client for the load generator (no dependency, no per-request TCP setup). */
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export interface HttpResult {
  status: number;
  /** The body as UTF-8 text (a PDF's is not meaningful as text: use `bytes` for its length). */
  body: string;
  /** The body's length in bytes, as sent. */
  bytes: number;
  contentType: string;
  /** A redirect's target (the pay button's 303 to the checkout). */
  location: string | undefined;
  ms: number;
}

export function httpRequest(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            body: raw.toString('utf8'),
            bytes: raw.length,
            contentType: String(res.headers['content-type'] ?? ''),
            location: res.headers.location,
            ms: performance.now() - started,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function destroyAgent(): void {
  agent.destroy();
}
