/**
 * The benchmark's "Lambda host": the local HTTP runtime (infra/local/server.ts) serving the same handler
 * modules, in its own process so that the load generator does not share its event loop.
 *
 * It registers one DynamoDB client hook (test/support/dynamo-hooks.ts, on the shared client's middleware stack):
 * - every request asks for `ReturnConsumedCapacity: INDEXES` (no production code path sets it; the
 *   replayed requests carry the same parameter, so endpoint and floor ask DynamoDB for the same work);
 * - while capturing, each call's command, input, consumed capacity and the items it read are recorded.
 * Capture is driven by two bench-only routes: `POST /__bench/capture` (start, cleared) and
 * `GET /__bench/capture` (stop and return the calls).
 *
 * Env: DYNAMODB_ENDPOINT, TABLE_NAME (set by bench/main.ts). Sends `{ port }` over IPC when listening.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// As deployed, minus X-Ray (no daemon here): the per-request log line and the EMF metrics blob are produced
// and written (bench/main.ts sends this process's stdout to /dev/null).
process.env.POWERTOOLS_TRACE_ENABLED = 'false';
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

const { dynamoHooks } = await import('../test/support/dynamo-hooks.ts');
const { createLocalServer } = await import('../infra/local/server.ts');

export interface CapturedCall {
  command: string;
  input: Record<string, unknown>;
  elapsedMs: number;
  consumedCapacity: unknown;
  /** Items a read returned (BatchGetItem responses, GetItem item); Query: only the count. */
  items?: Record<string, unknown>[];
  count?: number;
  error?: string;
}

let capturing = false;
let calls: CapturedCall[] = [];

dynamoHooks.add({
  before(call) {
    call.input.ReturnConsumedCapacity = 'INDEXES';
    if (capturing) (call as { snapshot?: Record<string, unknown> }).snapshot = structuredClone(call.input);
  },
  after(call, output, elapsedMs) {
    if (!capturing) return;
    const snapshot = (call as { snapshot?: Record<string, unknown> }).snapshot ?? call.input;
    const record: CapturedCall = { command: call.command, input: snapshot, elapsedMs, consumedCapacity: output.ConsumedCapacity };
    if (call.command === 'BatchGetItemCommand') {
      record.items = Object.values((output.Responses ?? {}) as Record<string, Record<string, unknown>[]>).flat();
    } else if (call.command === 'GetItemCommand') {
      record.items = output.Item ? [output.Item as Record<string, unknown>] : [];
    } else if (call.command === 'QueryCommand') {
      record.count = Number(output.Count ?? 0);
    }
    calls.push(record);
  },
});

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createLocalServer({
  rootDir: new URL('..', import.meta.url).pathname,
  logger: { error: (message, error) => console.error(message, error) },
  staticRoutes: {
    'POST /__bench/capture': (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      calls = [];
      capturing = true;
      sendJson(res, 200, { capturing });
    },
    'GET /__bench/capture': (_req: IncomingMessage, res: ServerResponse) => {
      capturing = false;
      sendJson(res, 200, calls);
      calls = [];
    },
  },
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('message', (message) => {
  if (message === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
