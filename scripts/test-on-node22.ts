/**
 * `npm test`'s second half (scripts/test.ts): the `unit` and `functions` projects (vitest.config.ts) on Node.js 22,
 * the runtime Lambda runs — every test that calls the functions' handlers in this process, and the pure rules (the
 * first half runs `local` on the machine's Node, the user's: npm start, the CLI, the CDK app). The bundles `cdk synth`
 * builds are invoked on Node 22 by test/infra/synth.test.ts. Extra arguments go to vitest.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { node22Binary } from '../infra/tools/node22.ts';

const PROJECTS = ['unit', 'functions', 'functions-own-process'];
/**
 * Three files at a time, not two: this pass waits more than it computes (invocation deadlines, webhook retries, the
 * paused database), leaving a third of two cores idle with two (docs/decisions.md "How the suite runs"). Set through
 * the configuration (vitest.config.ts reads TEST_WORKERS): a `--maxWorkers` argument left the projects at two.
 */
const WORKERS = process.env.NODE22_WORKERS ?? '3';
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

let node: string;
try {
  node = node22Binary();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`Running the ${PROJECTS.join(' and ')} projects on Node ${version}`);
const projects = PROJECTS.flatMap((name) => ['--project', name]);
const run = spawnSync(node, [vitest, 'run', ...projects, ...process.argv.slice(2)], {
  stdio: 'inherit',
  // TEST_ENGINE_PER_WORKER: one DynamoDB Local per worker (test/support/global-setup.ts).
  env: { ...process.env, TEST_WORKERS: WORKERS, TEST_ENGINE_PER_WORKER: '1' },
});
process.exit(run.status ?? 1);
