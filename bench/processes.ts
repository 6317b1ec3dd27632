/** The bench's child processes: the local HTTP runtime (bench/server-child.ts) and the floor (bench/floor-child.ts). */
import { type ChildProcess, fork } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { lambdaHeapFlags } from '../infra/function-memory.ts';
import { REPO_ROOT } from './config.ts';

export interface Child {
  port: number;
  child: ChildProcess;
}

/** Environment of the runtime and of the floor: the same, so both build the same DynamoDB client. */
const childEnv = (endpoint: string, tableName: string, extra: NodeJS.ProcessEnv = {}) => ({
  ...process.env,
  ...extra,
  DYNAMODB_ENDPOINT: endpoint,
  TABLE_NAME: tableName,
  LOG_LEVEL: 'INFO',
  AUTH_CACHE_SECONDS: '30',
  POWERTOOLS_SERVICE_NAME: 'invoicing',
  POWERTOOLS_METRICS_NAMESPACE: 'Invoicing',
});

/** Where a child's stdout goes: nowhere, or with BENCH_CHILD_STDOUT=<dir> a file per child (e.g. for `--trace-gc`). */
function childStdout(script: string, tableName: string): 'ignore' | number {
  const dir = process.env.BENCH_CHILD_STDOUT;
  if (!dir) return 'ignore';
  return openSync(path.join(dir, `${path.basename(script, '.ts')}-${tableName}-${Date.now()}.log`), 'w');
}

export function startChild(
  script: string,
  endpoint: string,
  tableName: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Child> {
  const stdout = childStdout(script, tableName);
  const child = fork(path.join(REPO_ROOT, script), [], {
    cwd: REPO_ROOT,
    // Both run with the heap Lambda's Node.js runtime gives a deployed function (its semi-spaces decide how often
    // a request meets a garbage collection).
    execArgv: [
      '--import',
      'tsx',
      ...lambdaHeapFlags(),
      ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
    ],
    // Production logging (one INFO line per request) stays on; its output goes nowhere unless kept (above).
    env: childEnv(endpoint, tableName, extraEnv),
    // Its stderr carries the handlers' ERROR log lines (e.g. 503s, counted in the statuses); kept for a crash report.
    stdio: ['ignore', stdout, 'pipe', 'ipc'],
    // Structured clone over IPC: captured inputs keep their binary attributes (Uint8Array), sets and numbers.
    serialization: 'advanced',
  });
  if (typeof stdout === 'number') closeSync(stdout); // the child has its own copy
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) console.error(`${script} (${tableName}) exited with ${code}:\n${stderr}`);
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port?: number }) => resolve({ port: message.port ?? 0, child }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr}`)));
  });
}

export const startServer = (endpoint: string, tableName: string) =>
  startChild('bench/server-child.ts', endpoint, tableName);
export const startFloor = (endpoint: string, tableName: string) =>
  startChild('bench/floor-child.ts', endpoint, tableName);

export async function stopChild(server: Child): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.send('stop');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
