/**
 * Observe or disturb the DynamoDB calls of this process from outside production code: fault injection,
 * round-trip and capacity counting, the record of which actions each handler really performs, and the
 * benchmark's probe (bench/bench-hooks.ts).
 *
 * One middleware is attached, on first use, to the middleware stack of the shared client
 * (`documentClient()` in shared/store/dynamodb-client.ts). A `DynamoDBDocumentClient` uses its base client's
 * middleware stack (the same object), so every command of every handler in this process passes through it.
 * Production code registers nothing and does not know this file exists.
 */
import { documentClient } from '../../shared/store/dynamodb-client.ts';

export interface DynamoCall {
  /** e.g. "TransactWriteItemsCommand" */
  command: string;
  /** The command's input as it will be sent: a `before` hook may add parameters to it. */
  input: Record<string, unknown>;
}

/** `before`, then `after` or `failed`, are given the same `call` object for one call. */
export interface DynamoHook {
  /** Runs before the request is sent; throw to simulate a failure. */
  before?(call: DynamoCall): void | Promise<void>;
  /** Runs after a response arrived; throw to simulate a crash after the write committed. */
  after?(call: DynamoCall, output: Record<string, unknown>, elapsedMs: number): void | Promise<void>;
  /** Runs when the call was sent and failed (DynamoDB or the transport), before the error goes on. */
  failed?(call: DynamoCall, error: unknown, elapsedMs: number): void | Promise<void>;
}

const MIDDLEWARE_NAME = 'testDynamoHooks';
const hooks = new Set<DynamoHook>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (hooks.size === 0) return next(args);
      const call: DynamoCall = { command: String(context.commandName), input: args.input as Record<string, unknown> };
      for (const hook of hooks) await hook.before?.(call);
      const started = performance.now();
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (error) {
        const elapsed = performance.now() - started;
        for (const hook of hooks) await hook.failed?.(call, error, elapsed);
        throw error;
      }
      const elapsed = performance.now() - started;
      for (const hook of hooks) await hook.after?.(call, result.output as unknown as Record<string, unknown>, elapsed);
      return result;
    },
    { step: 'initialize', name: MIDDLEWARE_NAME, override: true },
  );
}

export const dynamoHooks = {
  /** Registers a hook; returns the function that removes it. */
  add(hook: DynamoHook): () => void {
    install();
    hooks.add(hook);
    return () => hooks.delete(hook);
  },
  clear(): void {
    hooks.clear();
  },
};
