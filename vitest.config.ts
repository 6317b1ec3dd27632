import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/sequencer.ts';

// The AWS SDK warns that releases after January 2027 need Node 22; Lambda runs Node 22, and `npm test` runs
// on the machine's Node (20 here) and again on Node 22 (scripts/test-on-node22.ts).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

// Every JVM the tests start (the workers' DynamoDB Locals, the files' own, those of `npm start` and the CLI) compiles
// with C1 only: a DynamoDB Local then costs about half the CPU to start and serve a test file (2 s instead of 5 s
// to start on this 2-core machine), and its first writes take 0.1–0.7 s instead of 1–3 s under load, below the
// functions' 1.5 s timeouts (infra/local/dynamodb-local-warm-up.ts). Long-lived engines (npm start, npm run bench) keep the
// JVM's default; docs/decisions.md "How the suite runs".
const C1_ONLY = '-XX:TieredStopAtLevel=1';
if (!process.env.JAVA_TOOL_OPTIONS?.includes(C1_ONLY))
  process.env.JAVA_TOOL_OPTIONS = [process.env.JAVA_TOOL_OPTIONS, C1_ONLY].filter(Boolean).join(' ');

/**
 * Five projects, by where the code under test runs (CONTRIBUTING.md "Tests"). Every test file is in exactly one:
 * `functions` is whatever the others leave.
 *
 * `unit`: pure code — no database, no process besides the test worker. No global setup, so running these files
 * starts no DynamoDB Local; their setup points the store at a closed port, so a test that reaches for a database
 * by mistake fails at once. `npm test` runs them on both Node versions.
 */
export const UNIT_FILES = [
  'test/unit/**/*.test.ts',
  'test/structure/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/openapi/document.test.ts',
  'test/openapi/webhooks.test.ts',
  'test/local/account-update-args.test.ts',
  'test/local/banner.test.ts',
  'test/local/cli-args.test.ts',
  'test/local/database-note.test.ts',
  'test/local/docs-live-examples.test.ts',
  'test/local/event.test.ts',
  'test/local/paystack-api.test.ts',
  'test/local/paystack-money.test.ts',
  'test/local/paystack-webhooks.test.ts',
  'test/local/server.test.ts',
];

/**
 * `functions`: the functions' handlers called in this process against the worker's DynamoDB Local — integration,
 * the OpenAPI contract, observability, the in-process robustness tests, and the IAM tests that record what the
 * handlers call. `npm test` runs them on Node 22, the runtime Lambda runs (scripts/test-on-node22.ts).
 */
const FUNCTIONS_OWN_INFRA = ['iam-actions.test.ts', 'wake-sweep.test.ts'];

/**
 * `cdk`: the CDK app (assertions, cdk-nag, the offline synth whose bundles answer the fixtures on Node 22). It runs on
 * the machine's Node, as `cdk synth` does on a developer's machine; `npm test` runs it with `local`.
 */
export const CDK_FILES = readdirSync(join(import.meta.dirname, 'test/infra'))
  .filter((name) => name.endsWith('.test.ts') && !FUNCTIONS_OWN_INFRA.includes(name))
  .map((name) => `test/infra/${name}`);

/**
 * `local`: what runs on a developer's machine — `npm start` and the CLI as processes (the kill tests included), the
 * docs page in Chromium. `npm test` runs them on the machine's Node, which is the user's.
 */
export const LOCAL_FILES = [
  'test/local/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/robustness/crash-matrix.test.ts',
  'test/robustness/kill-in-flight.test.ts',
  'test/robustness/paystack-kill.test.ts',
  'test/robustness/transfers-kill.test.ts',
];

/**
 * `functions-own-process`: `functions` files that change what a process holds for the rest of its life — the paused
 * database's file points the store's one client at its own DynamoDB Local, the reference-code file replaces a module
 * (`vi.mock`). Each runs in a process of its own, as every file of `functions` once did.
 */
const OWN_PROCESS_FILES = ['test/robustness/paused-database.test.ts', 'test/integration/reference-codes.test.ts'];

const withDatabase = {
  globalSetup: ['test/support/global-setup.ts'],
  setupFiles: ['test/support/env-setup.ts'],
};

export default defineConfig({
  test: {
    pool: 'forks',
    // Two files at a time on the 2-core machine: most files wait on DynamoDB Local, npm start or Chromium, and
    // the paused-database test no longer needs a quiet machine (docs/decisions.md "How the suite runs"). The Node 22
    // pass sets TEST_WORKERS (scripts/test-on-node22.ts): vitest's --maxWorkers does not reach the projects, which
    // take this value.
    maxWorkers: Number(process.env.TEST_WORKERS) || 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        extends: true,
        // Pure modules: a worker's files share their imports instead of loading them again for each file (about
        // half of the project's time was imports).
        test: { name: 'unit', include: UNIT_FILES, setupFiles: ['test/support/unit-setup.ts'], isolate: false },
      },
      {
        extends: true,
        test: { name: 'local', include: LOCAL_FILES, exclude: UNIT_FILES, ...withDatabase },
      },
      {
        extends: true,
        // One module graph per worker, as `unit`: each file imported aws-cdk-lib again and synthesised the stages the
        // others had (test/infra/template-helpers.ts keeps each synthesis for the worker).
        test: { name: 'cdk', include: CDK_FILES, isolate: false, ...withDatabase },
      },
      {
        extends: true,
        // One module graph per worker, as `unit` and `cdk`: each file imported the functions' modules again (about a
        // fifth of this project's CPU). test/support/env-setup.ts gives each file the environment the first one had.
        test: {
          name: 'functions',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT_FILES, ...LOCAL_FILES, ...CDK_FILES, ...OWN_PROCESS_FILES],
          isolate: false,
          ...withDatabase,
        },
      },
      {
        extends: true,
        test: { name: 'functions-own-process', include: OWN_PROCESS_FILES, ...withDatabase },
      },
    ],
  },
});
