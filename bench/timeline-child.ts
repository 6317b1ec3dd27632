/**
 * The child of bench/timeline.ts: the local runtime (infra/local/server.ts) with timestamps on each request — when
 * it arrived, when the handler started and ended, each DynamoDB call, and when the response was ended and
 * finished. Answers `dump` over IPC with the requests since the last dump and its CPU time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_TRACE_ENABLED = 'false';
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

const { documentClient } = await import('../shared/store/dynamodb-client.ts');
const { createLocalServer, importHandler } = await import('../infra/local/server.ts');
const { serveForBench } = await import('./ipc.ts');

export interface RequestTimeline {
  arrived: number;
  handlerStarted?: number;
  handlerEnded?: number;
  calls: [start: number, end: number][];
  ended?: number;
  finished?: number;
}

const current = new AsyncLocalStorage<RequestTimeline>();
const done: RequestTimeline[] = [];
documentClient().middlewareStack.add(
  (next) => async (args) => {
    const timeline = current.getStore();
    const started = performance.now();
    try {
      return await next(args);
    } finally {
      timeline?.calls.push([started, performance.now()]);
    }
  },
  { step: 'initialize', name: 'benchTimeline', override: true },
);

const rootDir = new URL('..', import.meta.url).pathname;
const server = createLocalServer({
  rootDir,
  loadHandler: async (route) => {
    const handler = await importHandler(route, rootDir);
    return async (event, context) => {
      const timeline = current.getStore();
      if (timeline) timeline.handlerStarted = performance.now();
      try {
        return await handler(event, context);
      } finally {
        if (timeline) timeline.handlerEnded = performance.now();
      }
    };
  },
});
const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
server.removeAllListeners('request');
server.on('request', (req: IncomingMessage, res: ServerResponse) => {
  const timeline: RequestTimeline = { arrived: performance.now(), calls: [] };
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { end: (...args: unknown[]) => ServerResponse }).end = (...args: unknown[]) => {
    timeline.ended = performance.now();
    return end(...args);
  };
  res.once('finish', () => {
    timeline.finished = performance.now();
    done.push(timeline);
  });
  current.run(timeline, () => {
    for (const listener of listeners) listener.call(server, req, res);
  });
});
serveForBench(server);
process.on('message', (message) => {
  if (message === 'dump') process.send?.({ requests: done.splice(0), cpu: process.cpuUsage() });
});
