/**
 * `npm test` (CONTRIBUTING.md "Tests"): the `local` and `cdk` projects on this machine's Node (the user's: npm start,
 * the CLI, Chromium, `cdk synth`), then the `unit` and `functions` projects on Node 22 (scripts/test-on-node22.ts),
 * with `tsc --noEmit` and `biome ci .` beside both at the lowest CPU priority. The static checks' output is printed
 * when they end (all of it if one failed; docs/decisions.md "How the suite runs"); the exit code is non-zero if any
 * part failed. DynamoDB Local's class archive is built beside the first pass if this checkout has none
 * (infra/local/dynamodb-local-class-archive.ts).
 */
import { spawn } from 'node:child_process';
import { classArchiveDirectory, ensureClassArchive } from '../infra/local/dynamodb-local-class-archive.ts';

interface Outcome {
  name: string;
  code: number;
  output: string;
}

/** Runs a command; with `keep`, its output is kept to be printed in one piece when it ends. */
function run(name: string, command: string, args: string[], keep = true): Promise<Outcome> {
  return new Promise((resolveOutcome) => {
    const child = spawn(command, args, { stdio: ['ignore', keep ? 'pipe' : 'inherit', keep ? 'pipe' : 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', (error) => resolveOutcome({ name, code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolveOutcome({ name, code: code ?? 1, output }));
  });
}

/** A passed part's last lines (its summary); a failed part's whole output. */
function report({ name, code, output }: Outcome): void {
  if (output === '' && code === 0) return;
  console.log(`\n── ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`);
  const lines = output.trimEnd().split('\n');
  console.log((code === 0 ? lines.slice(-6) : lines).join('\n'));
}

/** `command` at the lowest CPU priority (where `nice` exists): it runs on the CPU the tests leave idle. */
const atLowestPriority = (command: string, args: string[]): [string, string[]] =>
  process.platform === 'win32' ? [command, args] : ['nice', ['-n', '19', command, ...args]];

// tsc and Biome only compute (about 30 s of CPU): they run beside both passes at the lowest priority, so that they
// take nothing from the first pass, which is CPU-bound, and use what the Node 22 pass leaves idle (a quarter of it).
const staticChecks = Promise.all([
  run('tsc --noEmit', ...atLowestPriority('npx', ['tsc', '--noEmit'])),
  run('biome ci .', ...atLowestPriority('npx', ['biome', 'ci', '.'])),
]);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'; // as in vitest.config.ts
// Every DynamoDB Local the tests start maps its classes from one archive (infra/local/dynamodb-local-launch.ts) once
// it exists: on a fresh checkout it is built beside the first pass, whose first engines start without it.
process.env.DYNAMODB_LOCAL_CLASS_ARCHIVE = classArchiveDirectory();
const classArchiveBuilt = ensureClassArchive();
const firstPass = await run(
  `local and cdk projects (this Node, ${process.version})`,
  'npx',
  ['vitest', 'run', '--project', 'local', '--project', 'cdk'],
  false,
);
const secondPass = await run(
  'unit and functions projects (Node 22)',
  'npx',
  ['tsx', 'scripts/test-on-node22.ts'],
  false,
);
await classArchiveBuilt; // reports its own failure; the passes ran either way
const outcomes = [firstPass, secondPass, ...(await staticChecks)];
for (const outcome of outcomes) report(outcome);
const failed = outcomes.filter((o) => o.code !== 0).map((o) => o.name);
console.log(failed.length === 0 ? '\nnpm test: every part passed' : `\nnpm test: FAILED — ${failed.join('; ')}`);
process.exit(failed.length === 0 ? 0 : 1);
