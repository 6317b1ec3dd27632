/**
 * Cold-start proxy. The three function bundles are produced by the CDK stack itself: `createApp()`
 * (infra/invoicing-app.ts, with cdk.json's context) is synthesised into a temporary folder, which runs
 * NodejsFunction's own local esbuild bundling with the stack's `BUNDLING` options
 * (infra/function-settings.ts); the bench takes each function's `index.mjs` from its asset folder.
 * The baseline is a one-function CDK app using the same `BUNDLING`, `RUNTIME` and `ARCHITECTURE`, whose
 * entry only constructs the DynamoDB document client (bench/cold-start/baseline-handler.ts).
 *
 * Import time: `await import(bundle)` in a fresh `node` process, with the environment the stack gives
 * the functions; runs are interleaved across bundles (so drift hits all alike) and the median is kept.
 */

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { node22Binary } from '../infra/tools/node22.ts';
import { median, ratio, round } from './stats.ts';

export interface BundleFigures {
  name: string;
  sizeKb: number;
  gzipKb: number;
  importMedianMs: number;
  importSamplesMs: number[];
  /** import median ÷ baseline import median (baseline: 1). */
  ratioToBaseline: number;
}

export interface ColdStartFigures {
  source: string;
  runs: number;
  node: string;
  baseline: BundleFigures;
  functions: BundleFigures[];
}

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * Runs bench/cold-start-synth.ts in a child process (keeps the CDK's bundling output out of the report), at the lowest
 * priority. Started first by bench/main.ts, while it starts its processes and seeds (nothing is timed then), and
 * awaited at the end of the warm-up.
 */
export function buildBundles(): { outdir: string; done: Promise<Map<string, string>> } {
  const outdir = mkdtempSync(path.join(tmpdir(), 'bench-cold-start-'));
  const tsx = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
  const started = performance.now();
  const done = new Promise<Map<string, string>>((resolve, reject) => {
    const synth = execFile(
      tsx,
      [path.join(REPO_ROOT, 'bench/cold-start-synth.ts'), outdir],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error)
          return reject(new Error(`CDK synth of the bundles failed: ${error.message}\n${stderr.slice(-2000)}`));
        synthMs = performance.now() - started;
        resolve(new Map(Object.entries(JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, string>)));
      },
    );
    // Behind the seeding, which the next steps wait for; the synth is waited for only after the warm-up. Its esbuild
    // processes, started later, inherit the priority.
    if (synth.pid) setPriority(synth.pid, 19);
  });
  done.catch(() => undefined);
  return { outdir, done };
}

let synthMs = Number.NaN;

/** Import time of each bundle in `runs` fresh Node 22 processes, interleaved across the bundles. */
function importTimes(outdir: string, bundles: Map<string, string>, runs: number): Map<string, number[]> {
  const probe = path.join(outdir, 'probe.mjs');
  writeFileSync(
    probe,
    'const t = performance.now(); await import(process.argv[2]); process.stdout.write(String(performance.now() - t));',
  );
  // What the stack sets on every function, plus a region (Lambda always has one).
  const env = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    TABLE_NAME: 'bench-cold-start',
    LOG_LEVEL: 'INFO',
    POWERTOOLS_SERVICE_NAME: 'invoicing',
    POWERTOOLS_METRICS_NAMESPACE: 'Invoicing',
    AUTH_CACHE_SECONDS: '30',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const samples = new Map<string, number[]>([...bundles.keys()].map((name) => [name, []]));
  // Node 22, the runtime Lambda runs the functions on (infra/tools/node22.ts).
  const node = node22Binary();
  for (let run = 0; run < runs; run++) {
    for (const [name, file] of bundles) {
      const out = execFileSync(node, [probe, file], {
        cwd: outdir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      }).toString();
      samples.get(name)!.push(Number(out));
    }
  }
  return samples;
}

export async function measureColdStart(
  build: ReturnType<typeof buildBundles>,
  runs: number,
  log: (line: string) => void,
): Promise<ColdStartFigures> {
  const { outdir } = build;
  try {
    const bundles = await build.done;
    log(`  bundles built by CDK synth in ${Math.round(synthMs)} ms`);
    const samples = importTimes(outdir, bundles, runs);
    const figures = (name: string, baselineMs: number): BundleFigures => {
      const file = bundles.get(name)!;
      const code = readFileSync(file);
      const importMedianMs = round(median(samples.get(name)!));
      return {
        name,
        sizeKb: round(statSync(file).size / 1024, 1),
        gzipKb: round(gzipSync(code).length / 1024, 1),
        importMedianMs,
        importSamplesMs: samples.get(name)!.map((v) => round(v)),
        ratioToBaseline: ratio(importMedianMs, baselineMs),
      };
    };
    const baselineMs = round(median(samples.get('baseline')!));
    return {
      source:
        'CDK synth of infra/invoicing-app.ts (NodejsFunction local esbuild, BUNDLING from infra/function-settings.ts)',
      runs,
      node: execFileSync(node22Binary(), ['--version']).toString().trim(),
      baseline: figures('baseline', baselineMs),
      functions: [...bundles.keys()].filter((n) => n !== 'baseline').map((n) => figures(n, baselineMs)),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
