/**
 * Cold-start proxy, after DynamoDB Local stopped (nothing else competes for the CPU): the bundles built by the CDK
 * stack, their import time in fresh Node processes against the baseline's (bench/cold-start.ts).
 */
import { measureColdStart } from '../cold-start.ts';
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { log } from '../progress.ts';

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(
    `Cold-start proxy: bundles built by the CDK stack, import time in fresh Node processes (median of ${SIZES.coldRuns})`,
  );
  const cold = await measureColdStart(ctx.bundleBuild, SIZES.coldRuns, log);
  ctx.results.coldStart = cold;
  log(
    `  baseline (document client only): ${cold.baseline.sizeKb} KB (${cold.baseline.gzipKb} KB gzip), import ${cold.baseline.importMedianMs} ms`,
  );
  for (const fn of cold.functions) {
    log(
      `  ${fn.name}: ${fn.sizeKb} KB (${fn.gzipKb} KB gzip), import ${fn.importMedianMs} ms = ${fn.ratioToBaseline} × baseline`,
    );
    ctx.budgets.push({ name: `import ${fn.name} ÷ baseline`, value: fn.ratioToBaseline, comparator: '<=', limit: 1.5 });
  }
}
