/**
 * The CLI (infra/cli) as the tests run it: what `npm run --silent <script> -- args` runs, the package.json script's
 * `tsx <file> …` command, on this Node with tsx's loader. Without npm's and tsx's launcher processes a call costs
 * about 0.45 s less CPU, on a machine the suite keeps busy; `viaNpm` runs it through npm, as users do
 * (test/local/cli.test.ts "--help answers through npm run"). Asynchronous: a synchronous child would stall the test's
 * event loop past a running service's keep-alive timeout, and fetch would then reuse a socket it had closed.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The package.json script `name`, `tsx <file> <arguments>`, as Node's arguments with tsx's loader. */
function scriptCommand(name: string): string[] {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const words = scripts[name]?.split(' ') ?? [];
  if (words[0] !== 'tsx') throw new Error(`package.json script ${name} is not a tsx command: ${scripts[name]}`);
  return ['--import', 'tsx', ...words.slice(1)];
}

/** Runs the CLI script `script` with `args`; never rejects: the exit code is in the result. */
export function runScript(
  script: string,
  args: readonly string[] = [],
  options: { env?: NodeJS.ProcessEnv; viaNpm?: boolean } = {},
): Promise<CliResult> {
  const [file, argv] = options.viaNpm
    ? ['npm', ['run', '--silent', script, '--', ...args]]
    : [process.execPath, [...scriptCommand(script), ...args]];
  return new Promise((done) => {
    execFile(file, argv, { cwd: ROOT, env: options.env ?? process.env, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
