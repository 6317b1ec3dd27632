/**
 * The benchmark's "Lambda host": the local HTTP runtime (infra/local/server.ts) serving the same handler
 * modules, in its own process so that the load generator does not share its event loop.
 *
 * It installs the bench's DynamoDB client hook (bench/bench-hooks.ts, the same one the floor process installs):
 * every request asks for `ReturnConsumedCapacity: INDEXES`, DynamoDB time is summed, and while capturing each
 * call's command, input, consumed capacity and the items it read are recorded. It answers over IPC
 * (bench/ipc.ts): `stats` (CPU time and DynamoDB totals), `captureStart` and `captureStop` (the calls).
 * `POST /__bench/hop` measures the HTTP hop alone (the local runtime's own server, no handler).
 *
 * Over IPC too: `durabilityBarrier` puts `npm start`'s barrier on the client or takes it off (the durability-barrier
 * phase), `useTable` points the process at another table (the scale phase), `usePaystack` at a Paystack server.
 *
 * Env: DYNAMODB_ENDPOINT, TABLE_NAME (set by bench/processes.ts). Sends `{ port }` over IPC when listening.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// As deployed, minus X-Ray (no daemon here): the per-request log line and the EMF metrics blob are produced
// and written (bench/processes.ts sends this process's stdout to /dev/null).
process.env.POWERTOOLS_TRACE_ENABLED = 'false';
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
// The send routes answer 501 without a sender; nothing is sent here (no mailer runs): the row measures the enqueue.
process.env.MAIL_FROM ??= 'invoices@example.com';

const { installBenchHook } = await import('./bench-hooks.ts');
const { answer, processStats, serveForBench } = await import('./ipc.ts');
const { createLocalServer, importHandler } = await import('../infra/local/server.ts');
const { ROUTES } = await import('../shared/routes.ts');

export type { CapturedCall } from './bench-hooks.ts';

const { installDurabilityBarrier } = await import('../infra/local/durability-barrier.ts');
const { documentClient } = await import('../shared/store/dynamodb-client.ts');
const { resetConfig } = await import('../shared/config.ts');

const hook = installBenchHook();

/**
 * Puts `npm start`'s durability barrier (docs/guarantees.md) on the process's DynamoDB client, or takes it off again:
 * the middleware it adds are found by their names, so the barrier's own code decides what it installs.
 */
function setDurabilityBarrier(on: boolean): string[] {
  const stack = documentClient().middlewareStack;
  const names = (list: string[]) => new Set(list.map((entry) => entry.split(' - ')[0]!));
  if (on) {
    const before = names(stack.identify());
    installDurabilityBarrier(documentClient());
    barrierMiddleware = [...names(stack.identify())].filter((name) => !before.has(name));
  } else {
    for (const name of barrierMiddleware) if (!stack.remove(name)) throw new Error(`no middleware ${name} to remove`);
    barrierMiddleware = [];
  }
  return barrierMiddleware;
}
let barrierMiddleware: string[] = [];

// Capture is driven over IPC (advanced serialization: binary attributes such as a gzipped idempotency body stay
// Uint8Array; JSON would turn them into objects of numbers and the floor would write something else).
answer({
  stats: () => processStats(hook.totals),
  requestTimes: () => hook.takeRequestMs(),
  captureStart: () => hook.startCapture(),
  captureStop: () => hook.stopCapture(),
  durabilityBarrier: (message) => setDurabilityBarrier(message.on === true),
  // The scale phase serves the same account's history from the large table, then the small one again: the table is
  // read from the configuration at every call (shared/config.ts), so the next request reads the table named here.
  useTable(message) {
    process.env.TABLE_NAME = String(message.table);
    resetConfig();
    return process.env.TABLE_NAME;
  },
  // The online-payments phase points the runtime at its local Paystack server and at the DATA_DIR whose local sealing
  // key sealed its account's secret key, then back (a value left out unsets the variable).
  usePaystack(message) {
    for (const name of ['PAYSTACK_BASE_URL', 'DATA_DIR']) {
      const value = message[name];
      if (typeof value === 'string') process.env[name] = value;
      else delete process.env[name];
    }
    resetConfig();
    return process.env.PAYSTACK_BASE_URL ?? null;
  },
});

const rootDir = new URL('..', import.meta.url).pathname;
// The handler modules imported now, as Lambda imports a function's before its first request (its INIT): while
// DynamoDB Local starts, not during the seeding's first requests (tsx compiles them at their first import).
await Promise.all(
  [...new Map(ROUTES.map((route) => [route.entry, route])).values()].map((route) => importHandler(route, rootDir)),
);
const server = createLocalServer({
  rootDir,
  logger: { error: (message, error) => console.error(message, error) },
  staticRoutes: {
    // The HTTP hop alone (no handler, no DynamoDB): reads the body and answers a small JSON body.
    'POST /__bench/hop': (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
        res.end('{}');
      });
    },
  },
});
// Each HTTP request is one scope of DynamoDB time (bench/bench-hooks.ts), closed when its response is done.
const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
server.removeAllListeners('request');
server.on('request', (req: IncomingMessage, res: ServerResponse) =>
  hook.requestScope((done) => {
    res.once('close', done);
    for (const listener of listeners) listener.call(server, req, res);
  }),
);
serveForBench(server);
