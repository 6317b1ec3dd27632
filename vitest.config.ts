import { defineConfig } from 'vitest/config';

// The AWS SDK warns that releases after January 2027 need Node 22; Lambda runs Node 22, and `npm test` runs
// on the machine's Node (20 here) and again on Node 22 (scripts/test-on-node22.ts).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

// Every JVM the tests start (the shared DynamoDB Local, the files' own, those of `npm start` and the CLI) compiles
// with C1 only: a DynamoDB Local then costs about half the CPU to start and serve a test file (2 s instead of 5 s
// to start on this 2-core machine), and its first writes take 0.1–0.7 s instead of 1–3 s under load, below the
// functions' 1.5 s timeouts (test/support/warm-up.ts). Long-lived engines (npm start, npm run bench) keep the
// JVM's default; docs/decisions.md "How the suite runs".
const C1_ONLY = '-XX:TieredStopAtLevel=1';
if (!process.env.JAVA_TOOL_OPTIONS?.includes(C1_ONLY))
  process.env.JAVA_TOOL_OPTIONS = [process.env.JAVA_TOOL_OPTIONS, C1_ONLY].filter(Boolean).join(' ');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/env-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
