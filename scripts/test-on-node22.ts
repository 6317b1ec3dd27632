/**
 * `npm test`'s second half (issue 17 §4): the unit, integration, OpenAPI and observability tests again, on
 * Node.js 22, the runtime Lambda runs (the first half runs everything on the machine's Node). The bundles
 * `cdk synth` builds are invoked on Node 22 by test/infra/synth.test.ts. Extra arguments go to vitest.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { node22Binary } from '../infra/tools/node22.ts';

const SUITES = ['test/unit', 'test/integration', 'test/openapi', 'test/observability'];
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

let node: string;
try {
  node = node22Binary();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`Running ${SUITES.join(', ')} on Node ${version}`);
const run = spawnSync(node, [vitest, 'run', ...SUITES, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
