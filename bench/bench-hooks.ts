/**
 * The bench's only probe on the DynamoDB client. Both bench processes that talk to DynamoDB — the runtime
 * (bench/server-child.ts) and the floor (bench/floor-child.ts) — install this same probe on the one client of
 * their process, so both pay the same cost per call and send the same parameters:
 * - every request asks for `ReturnConsumedCapacity: INDEXES` (no production code path sets it);
 * - DynamoDB wall time is accounted per request scope (`requestScope`): the time during which at least one of
 *   the request's calls was in flight (a history page's two concurrent BatchGetItem calls count once);
 * - while capturing, each call's command, input, timing, consumed capacity and the items it read are recorded.
 * It is a hook of `dynamoHooks` (infra/tools/dynamo-hooks.ts), the one middleware on the shared client's stack
 * that the tests use too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type DynamoCall, dynamoHooks } from '../infra/tools/dynamo-hooks.ts';

export interface CapturedCall {
  command: string;
  input: Record<string, unknown>;
  elapsedMs: number;
  /** performance.now() in the runtime when the call was sent and when it was answered (for replaying concurrency). */
  startMs?: number;
  endMs?: number;
  consumedCapacity: unknown;
  /** Items a read returned (BatchGetItem responses, GetItem item); Query: only the count. */
  items?: Record<string, unknown>[];
  count?: number;
  error?: string;
}

/** Totals since the process started: requests scoped, DynamoDB calls, and the DynamoDB wall time of the scopes. */
export interface DynamoTotals {
  requests: number;
  calls: number;
  ms: number;
}

export interface BenchHook {
  startCapture(): void;
  stopCapture(): CapturedCall[];
  totals(): DynamoTotals;
  /** The DynamoDB wall time of each request scope closed since the last call (then forgotten). */
  takeRequestMs(): number[];
  /** Runs `work` as one request: its DynamoDB wall time is added to the totals when `done` is called. */
  requestScope<T>(work: (done: () => void) => T): T;
}

interface Scope {
  inFlight: number;
  since: number;
  wallMs: number;
}

/** What the probe remembers of one call between its `before` and its `after` or `failed`. */
interface InFlightCall {
  started: number;
  scope: Scope | undefined;
  snapshot: Record<string, unknown> | undefined;
}

/** The captured record of a finished call: its reads' items or count, and its error if it failed. */
function capturedCall(
  call: DynamoCall,
  sent: InFlightCall,
  ended: number,
  output?: Record<string, unknown>,
  error?: unknown,
) {
  const record: CapturedCall = {
    command: call.command,
    input: sent.snapshot ?? {},
    elapsedMs: ended - sent.started,
    startMs: sent.started,
    endMs: ended,
    consumedCapacity: output?.ConsumedCapacity,
  };
  if (error) record.error = String((error as Error).name ?? error);
  if (call.command === 'BatchGetItemCommand') {
    record.items = Object.values((output?.Responses ?? {}) as Record<string, Record<string, unknown>[]>).flat();
  } else if (call.command === 'TransactGetItemsCommand') {
    const responses = (output?.Responses ?? []) as { Item?: Record<string, unknown> }[];
    record.items = responses.flatMap((response) => (response?.Item ? [response.Item] : []));
  } else if (call.command === 'GetItemCommand') {
    record.items = output?.Item ? [output.Item as Record<string, unknown>] : [];
  } else if (call.command === 'QueryCommand') {
    record.count = Number(output?.Count ?? 0);
  }
  return record;
}

/** What the hook keeps between calls: the capture, the totals and each request's DynamoDB time. */
interface HookState {
  capturing: boolean;
  calls: CapturedCall[];
  totals: DynamoTotals;
  requestMs: number[];
  scopes: AsyncLocalStorage<Scope>;
}

/** Times every call (per request scope), asks for its consumed capacity, and records it while a capture is on. */
function addDynamoHook(state: HookState): void {
  const inFlight = new WeakMap<DynamoCall, InFlightCall>();
  const finish = (call: DynamoCall, output?: Record<string, unknown>, error?: unknown) => {
    const sent = inFlight.get(call);
    if (!sent) return;
    const ended = performance.now();
    state.totals.calls++;
    if (sent.scope && --sent.scope.inFlight === 0) sent.scope.wallMs += ended - sent.scope.since;
    if (sent.snapshot) state.calls.push(capturedCall(call, sent, ended, output, error));
  };
  dynamoHooks.add({
    before(call) {
      call.input.ReturnConsumedCapacity = 'INDEXES';
      const snapshot = state.capturing ? structuredClone(call.input) : undefined;
      const scope = state.scopes.getStore();
      const started = performance.now();
      if (scope && scope.inFlight++ === 0) scope.since = started;
      inFlight.set(call, { started, scope, snapshot });
    },
    after: (call, output) => finish(call, output),
    failed: (call, error) => finish(call, undefined, error),
  });
}

export function installBenchHook(): BenchHook {
  const state: HookState = {
    capturing: false,
    calls: [],
    totals: { requests: 0, calls: 0, ms: 0 },
    requestMs: [],
    scopes: new AsyncLocalStorage<Scope>(),
  };
  addDynamoHook(state);
  return {
    startCapture() {
      state.calls = [];
      state.capturing = true;
    },
    stopCapture() {
      state.capturing = false;
      const out = state.calls;
      state.calls = [];
      return out;
    },
    totals: () => ({ ...state.totals }),
    takeRequestMs() {
      const taken = state.requestMs;
      state.requestMs = [];
      return taken;
    },
    requestScope(work) {
      const scope: Scope = { inFlight: 0, since: 0, wallMs: 0 };
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        const wallMs = scope.wallMs + (scope.inFlight > 0 ? performance.now() - scope.since : 0);
        state.totals.requests++;
        state.totals.ms += wallMs;
        if (state.requestMs.length < 100_000) state.requestMs.push(wallMs);
      };
      return state.scopes.run(scope, () => work(done));
    },
  };
}
