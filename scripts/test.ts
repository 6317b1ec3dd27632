/**
 * `npm test` (CONTRIBUTING.md "Tests"): the `local` and `cdk` projects on this machine's Node (the user's: npm start,
 * the CLI, Chromium, `cdk synth`), then the `unit` and `functions` projects on Node 22 (scripts/test-on-node22.ts),
 * with `tsc --noEmit` and `biome ci .` beside the second at the lowest CPU priority. The static checks' output is
 * printed when they end (all of it if one failed; docs/decisions.md "How the suite runs"); the exit code is non-zero
 * if any part failed. A failed pass's failures are printed again last, because CI shows only the end of the output.
 * DynamoDB Local's class archive is built beside the first pass if this checkout has none
 * (infra/local/dynamodb-local-class-archive.ts).
 */
import { spawn } from 'node:child_process';
import { classArchiveDirectory, ensureClassArchive } from '../infra/local/dynamodb-local-class-archive.ts';
import { testOutputSummary } from '../infra/tools/test-output-summary.ts';

interface Outcome {
  name: string;
  code: number;
  output: string;
}

/**
 * Runs a command and keeps its output; with `stream`, it is printed as it comes too, else in one piece at the end.
 * `env` is added to this process's environment.
 */
function run(
  name: string,
  command: string,
  args: string[],
  stream = false,
  env: NodeJS.ProcessEnv = {},
): Promise<Outcome> {
  return new Promise((resolveOutcome) => {
    // Piped, vitest would drop its colours; a terminal user still gets them.
    const colour = stream && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...colour, ...env },
    });
    let output = '';
    const keep = (sink: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk;
      if (stream) sink.write(chunk);
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.on('error', (error) => resolveOutcome({ name, code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolveOutcome({ name, code: code ?? 1, output }));
  });
}

/** A part's heading and summary (infra/tools/test-output-summary.ts). */
function report(outcome: Outcome): void {
  if (outcome.output === '' && outcome.code === 0) return;
  console.log(`\n── ${outcome.name}: ${outcome.code === 0 ? 'passed' : `FAILED (exit ${outcome.code})`}`);
  console.log(testOutputSummary(outcome.code, outcome.output).join('\n'));
}

/** `command` at the lowest CPU priority (where `nice` exists): it runs on the CPU the tests leave idle. */
const atLowestPriority = (command: string, args: string[]): [string, string[]] =>
  process.platform === 'win32' ? [command, args] : ['nice', ['-n', '19', command, ...args]];

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'; // as in vitest.config.ts
// Every DynamoDB Local the tests start maps its classes from one archive (infra/local/dynamodb-local-launch.ts) once
// it exists: on a fresh checkout it is built beside the first pass, whose first engines start without it.
process.env.DYNAMODB_LOCAL_CLASS_ARCHIVE = classArchiveDirectory();
const classArchiveBuilt = ensureClassArchive();
// Three files at a time: the first pass's files wait between their processes' bursts of CPU (a start, a sweep, a
// settle), and a third file fills those gaps (docs/decisions.md "How the suite runs").
const firstPass = await run(
  `local and cdk projects (this Node, ${process.version})`,
  'npx',
  ['vitest', 'run', '--project', 'local', '--project', 'cdk'],
  true,
  { TEST_WORKERS: '3' },
);
// tsc and Biome only compute (about 30 s of CPU): they run beside the Node 22 pass, at the lowest priority, on what
// it leaves idle (a quarter of two cores); the first pass is CPU-bound and has none to spare.
const staticChecks = Promise.all([
  run('tsc --noEmit', ...atLowestPriority('npx', ['tsc', '--noEmit'])),
  run('biome ci .', ...atLowestPriority('npx', ['biome', 'ci', '.'])),
]);
const secondPass = await run(
  'unit and functions projects (Node 22)',
  'npx',
  ['tsx', 'scripts/test-on-node22.ts'],
  true,
);
await classArchiveBuilt; // reports its own failure; the passes ran either way
const outcomes = [firstPass, secondPass, ...(await staticChecks)];
// Passed parts first: a failure's report is the end of the output, where CI's excerpt of it is taken from.
for (const outcome of [...outcomes].sort((a, b) => Number(a.code !== 0) - Number(b.code !== 0))) report(outcome);
const failed = outcomes.filter((o) => o.code !== 0).map((o) => o.name);
console.log(failed.length === 0 ? '\nnpm test: every part passed' : `\nnpm test: FAILED — ${failed.join('; ')}`);
process.exit(failed.length === 0 ? 0 : 1);
