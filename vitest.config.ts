import { defineConfig } from 'vitest/config';

// The AWS SDK warns that releases after January 2027 need Node 22; Lambda runs Node 22, and `npm test` runs
// on the machine's Node (20 here) and again on Node 22 (scripts/test-on-node22.ts).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

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
