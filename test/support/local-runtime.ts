/** Waiting for a spawned local runtime (`npm start` or `tsx infra/local/main.ts`) to print its ready banner. */
import type { ChildProcess } from 'node:child_process';

export interface RunningService {
  child: ChildProcess;
  baseUrl: string;
  secretKey: string;
  output: () => string;
}

/** Resolves once the child printed its URL and demo key; rejects if it exits first or takes longer than `timeoutMs`. */
export function waitUntilServing(child: ChildProcess, label: string, timeoutMs: number): Promise<RunningService> {
  let output = '';
  return new Promise((resolveRunning, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} not ready within ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const key = /Demo secret key: (sk_\S+)/.exec(output)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolveRunning({ child, baseUrl: url, secretKey: key, output: () => output });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before ready:\n${output}`));
    });
  });
}

/** Whether a process is alive (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until no process of the group is left; false if some still run after `timeoutMs`. */
export async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !groupAlive(pgid);
}

/** The environment of an `npm start` on free ports with its own DATA_DIR (nothing inherited points elsewhere). */
export function npmStartEnv(settings: {
  dataDir: string;
  dynamodbPort: number;
  extra?: NodeJS.ProcessEnv;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    DYNAMODB_PORT: String(settings.dynamodbPort),
    DATA_DIR: settings.dataDir,
    TABLE_NAME: 'invoicing-local',
    LOG_LEVEL: 'WARN',
    ...settings.extra,
  };
  for (const name of [
    'DYNAMODB_ENDPOINT',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_PROFILE',
    'STRESS',
    'PAYSTACK_BASE_URL',
  ])
    delete env[name];
  return env;
}
