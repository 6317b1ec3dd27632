/**
 * Measures the "bundle the AWS SDK or take it from the runtime" decision for each route's handler:
 * bundle size, and module import time of the built bundle in fresh Node processes (a local proxy for
 * Lambda's Init Duration). Uses the stack's esbuild options; samples of all variants are interleaved
 * so that background load affects them alike.
 *
 *   npx tsx infra/tools/measure-sdk-bundling.ts [runs=21] [entry.ts ...]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { API_FUNCTIONS } from '../../shared/routes.ts';
import { ESM_REQUIRE_BANNER } from '../function-settings.ts';
import { REPO_ROOT } from '../stack.ts';

const [runsArg, ...entryArgs] = process.argv.slice(2);
const runs = Number(runsArg ?? 21);
const entries =
  entryArgs.length > 0
    ? entryArgs.map((entry) => path.resolve(entry))
    : API_FUNCTIONS.map((fn) => path.join(REPO_ROOT, fn.entry));

interface Variant {
  entry: string;
  sdk: 'bundled' | 'external';
  file: string;
  samples: number[];
}

const workDir = mkdtempSync(path.join(tmpdir(), 'sdk-bundling-'));
// External @aws-sdk/* must resolve from the bundle's folder, as it does from the Lambda runtime's.
symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(workDir, 'node_modules'));
const probe = path.join(workDir, 'probe.mjs');
writeFileSync(probe, 'const t = performance.now(); await import(process.argv[2]); console.log(performance.now() - t);');
const env = {
  ...process.env,
  AWS_REGION: 'eu-west-1',
  TABLE_NAME: 'measure',
  LOG_LEVEL: 'SILENT',
  POWERTOOLS_SERVICE_NAME: 'invoicing',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

try {
  const variants: Variant[] = [];
  for (const entry of entries) {
    for (const sdk of ['bundled', 'external'] as const) {
      const file = path.join(workDir, `${path.basename(path.dirname(entry))}-${sdk}.mjs`);
      await build({
        entryPoints: [entry],
        outfile: file,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        minify: true,
        mainFields: ['module', 'main'],
        banner: { js: ESM_REQUIRE_BANNER },
        // What NodejsFunction externalises when bundleAwsSDK is false (with sdkV3ExcludeSmithyPackages).
        external: sdk === 'external' ? ['@aws-sdk/*', '@smithy/*'] : [],
        logLevel: 'error',
      });
      variants.push({ entry: path.relative(REPO_ROOT, entry), sdk, file, samples: [] });
    }
  }
  for (let run = 0; run < runs; run++) {
    for (const variant of variants) {
      variant.samples.push(
        Number(execFileSync(process.execPath, [probe, variant.file], { cwd: workDir, env }).toString().trim()),
      );
    }
  }
  console.log(`node ${process.version}, ${runs} fresh processes per variant`);
  console.table(
    variants.map(({ entry, sdk, file, samples }) => {
      const code = readFileSync(file);
      return {
        entry,
        sdk,
        minifiedKb: round(code.length / 1024),
        gzippedKb: round(gzipSync(code).length / 1024),
        importMedianMs: round(median(samples)),
        importMinMs: round(Math.min(...samples)),
      };
    }),
  );
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
