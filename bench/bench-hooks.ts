/**
 * The bench's only probe on the DynamoDB client. Both bench processes that talk to DynamoDB — the runtime
 * (bench/server-child.ts) and the floor (bench/floor-child.ts) — install this same middleware on the one
 * client of their process (`documentClient()`, shared/store/dynamodb-client.ts), so both pay the same cost per call and
 * send the same parameters:
 * - every request asks for `ReturnConsumedCapacity: INDEXES` (no production code path sets it);
 * - DynamoDB wall time is accounted per request scope (`requestScope`): the time during which at least one of
 *   the request's calls was in flight (a history page's two concurrent BatchGetItem calls count once);
 * - while capturing, each call's command, input, timing, consumed capacity and the items it read are recorded.
 * It uses the SDK's own middleware stack rather than a hook of ours, so test-support hooks can move freely.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { documentClient } from '../shared/store/dynamodb-client.ts';

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

export function installBenchHook(): BenchHook {
  let capturing = false;
  let calls: CapturedCall[] = [];
  const totals: DynamoTotals = { requests: 0, calls: 0, ms: 0 };
  let requestMs: number[] = [];
  const scopes = new AsyncLocalStorage<Scope>();
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'INDEXES';
      const snapshot = capturing ? structuredClone(input) : undefined;
      const scope = scopes.getStore();
      const started = performance.now();
      if (scope && scope.inFlight++ === 0) scope.since = started;
      let output: Record<string, unknown> | undefined;
      let error: unknown;
      try {
        const result = await next(args);
        output = result.output as unknown as Record<string, unknown>;
        return result;
      } catch (e) {
        error = e;
        throw e;
      } finally {
        const ended = performance.now();
        totals.calls++;
        if (scope && --scope.inFlight === 0) scope.wallMs += ended - scope.since;
        if (snapshot) {
          const command = String(context.commandName);
          const record: CapturedCall = {
            command,
            input: snapshot,
            elapsedMs: ended - started,
            startMs: started,
            endMs: ended,
            consumedCapacity: output?.ConsumedCapacity,
          };
          if (error) record.error = String((error as Error).name ?? error);
          if (command === 'BatchGetItemCommand') {
            record.items = Object.values((output?.Responses ?? {}) as Record<string, Record<string, unknown>[]>).flat();
          } else if (command === 'GetItemCommand') {
            record.items = output?.Item ? [output.Item as Record<string, unknown>] : [];
          } else if (command === 'QueryCommand') {
            record.count = Number(output?.Count ?? 0);
          }
          calls.push(record);
        }
      }
    },
    { step: 'initialize', name: 'benchProbe', override: true },
  );
  return {
    startCapture() {
      calls = [];
      capturing = true;
    },
    stopCapture() {
      capturing = false;
      const out = calls;
      calls = [];
      return out;
    },
    totals: () => ({ ...totals }),
    takeRequestMs() {
      const taken = requestMs;
      requestMs = [];
      return taken;
    },
    requestScope(work) {
      const scope: Scope = { inFlight: 0, since: 0, wallMs: 0 };
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        const wallMs = scope.wallMs + (scope.inFlight > 0 ? performance.now() - scope.since : 0);
        totals.requests++;
        totals.ms += wallMs;
        if (requestMs.length < 100_000) requestMs.push(wallMs);
      };
      return scopes.run(scope, () => work(done));
    },
  };
}
