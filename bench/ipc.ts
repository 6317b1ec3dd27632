/**
 * Request/answer messages between bench/main.ts and its child processes over the fork IPC channel.
 * Every child answers `{ type: 'stats' }` with its CPU time and DynamoDB totals (see ProcessStats).
 */
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import type { DynamoTotals } from './bench-hooks.ts';

export interface ProcessStats {
  /** process.cpuUsage() of the child, user + system, in microseconds since it started. */
  cpuUs: number;
  dynamo: DynamoTotals;
  /** Garbage-collection pauses of the child since its first `stats`, ms (what a large answer's garbage costs). */
  gcMs: number;
}

let gcMs = 0;
let gcObserver: PerformanceObserver | undefined;

interface Envelope {
  id: number;
  type: string;
  [key: string]: unknown;
}

let nextId = 0;

/** Sends `message` to the child and resolves with its answer (rejects on `{ error }` or exit). */
export function ask<T>(child: ChildProcess, message: { type: string; [key: string]: unknown }): Promise<T> {
  const id = ++nextId;
  return new Promise<T>((resolve, reject) => {
    const onMessage = (answer: { id?: number; error?: string; result?: T }) => {
      if (answer?.id !== id) return;
      cleanup();
      if (answer.error) reject(new Error(answer.error));
      else resolve(answer.result as T);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`child exited with ${code} while answering ${message.type}`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ ...message, id });
  });
}

/** In a child: answers each request with `handlers[type](message)`. */
export function answer(handlers: Record<string, (message: Envelope) => unknown>): void {
  process.on('message', async (message: Envelope | string) => {
    if (typeof message !== 'object' || message === null || typeof message.id !== 'number') return;
    const handler = handlers[message.type];
    try {
      if (!handler) throw new Error(`no handler for ${message.type}`);
      process.send?.({ id: message.id, result: await handler(message) });
    } catch (error) {
      process.send?.({ id: message.id, error: (error as Error).stack ?? String(error) });
    }
  });
}

export function processStats(totals: () => DynamoTotals): ProcessStats {
  if (!gcObserver) {
    gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcMs += entry.duration;
    });
    gcObserver.observe({ entryTypes: ['gc'] });
  }
  const cpu = process.cpuUsage();
  return { cpuUs: cpu.user + cpu.system, dynamo: totals(), gcMs };
}

/**
 * In a child that is an HTTP server (the runtime, the floor, the timeline's runtime): keep-alive as the load
 * generator's agent expects, listen on a free loopback port and send `{ port }`; `stop` closes it and exits.
 */
export function serveForBench(server: Server): void {
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (message) => {
    if (message !== 'stop') return;
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}
