/**
 * Builds the cold-start bundles exactly as the CDK stack does, and prints `{ name: bundlePath }` as JSON.
 *   tsx bench/cold-start-synth.ts <outdir>
 * The three functions: `createApp()` (infra/invoicing-app.ts) with cdk.json's context, synthesised, which runs
 * NodejsFunction's local esbuild bundling with `BUNDLING` (infra/function-settings.ts). The baseline: a
 * one-function app with the same `BUNDLING`, `RUNTIME` and `ARCHITECTURE` (bench/cold-start/baseline-handler.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { ARCHITECTURE, BUNDLING, RUNTIME } from '../infra/function-settings.ts';
import { createApp } from '../infra/invoicing-app.ts';

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outdir = process.argv[2];
if (!outdir) throw new Error('usage: cold-start-synth.ts <outdir>');

const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
  context?: Record<string, unknown>;
};
// As the CDK CLI does: cdk.json's context, and asset metadata on (it records each function's asset folder).
const context = { ...(cdkJson.context ?? {}), 'aws:cdk:enable-asset-metadata': true };

type Template = { Resources: Record<string, { Metadata?: Record<string, string> }> };

function assetFile(stack: Stack, root: string, fn: NodejsFunction, template: Template): string {
  const logicalId = stack.getLogicalId(fn.node.defaultChild as CfnElement);
  const assetPath = template.Resources[logicalId]?.Metadata?.['aws:asset:path'];
  if (!assetPath) throw new Error(`no asset metadata for ${fn.node.path}`);
  return path.join(root, assetPath, 'index.mjs');
}

const bundles: Record<string, string> = {};

const { app, stack } = createApp(context, path.join(outdir, 'stack'));
const template = app.synth().getStackByName(stack.stackName).template as Template;
for (const [name, fn] of stack.functions) bundles[name] = assetFile(stack, path.join(outdir, 'stack'), fn, template);

const baselineApp = new App({ context, outdir: path.join(outdir, 'baseline') });
const baselineStack = new Stack(baselineApp, 'ColdStartBaseline');
const baseline = new NodejsFunction(baselineStack, 'Baseline', {
  entry: path.join(REPO_ROOT, 'bench/cold-start/baseline-handler.ts'),
  handler: 'handler',
  projectRoot: REPO_ROOT,
  depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
  runtime: RUNTIME,
  architecture: ARCHITECTURE,
  bundling: BUNDLING,
});
const baselineTemplate = baselineApp.synth().getStackByName(baselineStack.stackName).template as Template;
bundles.baseline = assetFile(baselineStack, path.join(outdir, 'baseline'), baseline, baselineTemplate);

console.log(JSON.stringify(bundles));
