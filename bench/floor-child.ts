/**
 * The floor: a process set up like the runtime (bench/server-child.ts) — same environment, same document
 * client built by the same `documentClient()` of shared/store/dynamodb-client.ts (so the same timeouts, retries and
 * HTTP keep-alive), same bench hook (bench/bench-hooks.ts), and an HTTP server reached by the load generator
 * exactly as the runtime is (same client, same request body and headers, a response of the same length) —
 * that replays an endpoint's captured DynamoDB requests (bench/replay.ts) and does nothing else. Endpoint ÷
 * floor therefore reads "our cost on top of DynamoDB": the handler stack, our code, logging and metrics, with
 * the transport between load generator and server on both sides of the ratio (docs/performance.md "Method").
 *
 * `POST /replay/<key>/<i>` runs replay `i` of the block prepared under `key` and answers 200 with the block's
 * response length in bytes. Driven over IPC (bench/ipc.ts): `prepare` seeds and holds a block's replays (not
 * timed), `check` captures one replay, `stats` answers CPU time and DynamoDB totals.
 * Env: DYNAMODB_ENDPOINT, TABLE_NAME (as the runtime). Sends `{ port }` over IPC when listening.
 */
import { createServer } from 'node:http';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_TRACE_ENABLED = 'false';

const { documentClient } = await import('../shared/store/dynamodb-client.ts');
const { installBenchHook } = await import('./bench-hooks.ts');
const { answer, processStats, serveForBench } = await import('./ipc.ts');
const { prepareReplays, runReplay } = await import('./replay.ts');
type ReplayTemplate = import('./replay.ts').ReplayTemplate;
type PreparedReplay = import('./replay.ts').PreparedReplay;

const hook = installBenchHook();
const client = documentClient();
/** Replays prepared per block (all blocks of a comparison are seeded before the first is timed), with the body to answer. */
const prepared = new Map<string, { replays: PreparedReplay[]; response: Buffer }>();

answer({
  stats: () => processStats(hook.totals),
  requestTimes: () => hook.takeRequestMs(),
  async prepare(message) {
    const replays = await prepareReplays(
      client,
      message.template as ReplayTemplate,
      Number(message.count),
      String(message.tagPrefix),
    );
    // A JSON string of the endpoint's response length: the load generator receives as many bytes from either side.
    const length = Math.max(2, Number(message.responseBytes) || 2);
    const response = Buffer.from(`"${'x'.repeat(length - 2)}"`);
    prepared.set(String(message.key), { replays, response });
    return { prepared: replays.length };
  },
  /** One replay of `template`, captured: what the floor really sent and the capacity DynamoDB consumed. */
  async check(message) {
    const [replay] = await prepareReplays(client, message.template as ReplayTemplate, 1, String(message.tagPrefix));
    hook.startCapture();
    await runReplay(client, replay!).catch(() => undefined); // a failed call is recorded with its error
    return hook.stopCapture();
  },
  forget(message) {
    prepared.delete(String(message.key));
    return true;
  },
});

const REPLAY_PATH = /^\/replay\/([^/]+)\/(\d+)$/;
const server = createServer((req, res) => {
  const match = REPLAY_PATH.exec(req.url ?? '');
  const block = match ? prepared.get(decodeURIComponent(match[1]!)) : undefined;
  const replay = block?.replays[Number(match?.[2])];
  req.resume();
  req.on('end', () => {
    if (!block || !replay) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"no such replay"}');
      return;
    }
    hook.requestScope(async (done) => {
      try {
        await runReplay(client, replay);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': block.response.length });
        res.end(block.response);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String((error as Error).name ?? error) }));
      } finally {
        done();
      }
    });
  });
});
serveForBench(server);
