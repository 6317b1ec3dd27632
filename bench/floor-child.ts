/**
 * The floor: a process set up like the runtime (bench/server-child.ts) — same environment, same document
 * client built by the same `documentClient()` of shared/store/client.ts (so the same timeouts, retries and
 * HTTP keep-alive), same bench hook (bench/bench-hooks.ts) — that replays an endpoint's captured DynamoDB
 * requests (bench/replay.ts) and nothing else. Endpoint ÷ floor therefore reads "our cost on top of DynamoDB":
 * the HTTP hop, the handler stack, our code, logging and metrics.
 *
 * Driven by bench/main.ts over IPC (bench/ipc.ts): `prepare` seeds and holds a block's replays under a key (not
 * timed), `run` sends a block's replays at a given concurrency and answers the latencies, `stats` answers CPU time and
 * DynamoDB totals. Env: DYNAMODB_ENDPOINT, TABLE_NAME (as the runtime).
 */
export {};

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_TRACE_ENABLED = 'false';

const { documentClient } = await import('../shared/store/client.ts');
const { installBenchHook } = await import('./bench-hooks.ts');
const { answer, processStats } = await import('./ipc.ts');
const { prepareReplays, runReplay } = await import('./replay.ts');
const { drive } = await import('./drive.ts');
type ReplayTemplate = import('./replay.ts').ReplayTemplate;
type PreparedReplay = import('./replay.ts').PreparedReplay;

const hook = installBenchHook();
const client = documentClient();
/** Replays prepared per block (all blocks of a comparison are seeded before the first is timed). */
const prepared = new Map<string, PreparedReplay[]>();

answer({
  stats: () => processStats(hook.totals),
  async prepare(message) {
    const replays = await prepareReplays(
      client,
      message.template as ReplayTemplate,
      Number(message.count),
      String(message.tagPrefix),
    );
    prepared.set(String(message.key), replays);
    return { prepared: replays.length };
  },
  /** One replay of `template`, captured: what the floor really sent and the capacity DynamoDB consumed. */
  async check(message) {
    const [replay] = await prepareReplays(client, message.template as ReplayTemplate, 1, String(message.tagPrefix));
    hook.startCapture();
    await runReplay(client, replay!).catch(() => undefined); // a failed call is recorded with its error
    return hook.stopCapture();
  },
  async run(message) {
    const replays = prepared.get(String(message.key)) ?? [];
    prepared.delete(String(message.key));
    return drive(replays.length, Number(message.concurrency), (i) =>
      hook.requestScope(async (done) => {
        try {
          return await runReplay(client, replays[i]!);
        } finally {
          done();
        }
      }),
    );
  },
});
process.on('message', (message) => {
  if (message === 'stop') process.exit(0);
});
process.send?.({ ready: true });
process.on('disconnect', () => process.exit(0));
