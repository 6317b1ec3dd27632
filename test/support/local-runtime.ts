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
