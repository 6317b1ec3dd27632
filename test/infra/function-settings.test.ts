import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { expect, it } from 'vitest';
import { BUNDLING, ESM_REQUIRE_BANNER } from '../../infra/function-settings.ts';

it('bundles locally with esbuild into minified node22 ESM, SDK included, with the createRequire banner', () => {
  expect(BUNDLING).toEqual({
    forceDockerBundling: false,
    format: OutputFormat.ESM,
    mainFields: ['module', 'main'],
    banner: ESM_REQUIRE_BANNER,
    minify: true,
    target: 'node22',
    sourceMap: false,
    bundleAwsSDK: true,
  });
  expect(ESM_REQUIRE_BANNER).toBe("import { createRequire } from 'module'; const require = createRequire(import.meta.url);");
});
