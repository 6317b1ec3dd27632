/**
 * How every route's function is built and sized. Reasons and measurements: docs/deploying.md,
 * "What the stack contains, and why".
 */
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  BUNDLED_FONT_DIR,
  FONT_FILES,
  FONT_PACKAGE,
  PDF_ENGINE_BUNDLE_FILE,
  UBL_ENGINE_BUNDLE_FILE,
} from '../shared/render/engine-files.ts';
import { FUNCTION_TIMEOUT_MS } from './function-timeout.ts';

/**
 * The cap on an API function's bundle (`index.mjs`): the largest measured (the invoice function's, about 750 KB: it
 * serves seven resources) and room for one more feature's routes. The synth test and the bench's cold-start phase
 * both hold every function to it.
 */
export const BUNDLE_KB_BUDGET = 850;

/** Pinned explicitly: `NODEJS_LATEST` would silently move to a newer runtime on a CDK upgrade. */
export const RUNTIME = lambda.Runtime.NODEJS_22_X;
export const ARCHITECTURE = lambda.Architecture.ARM_64;

/** Well under API Gateway's 30 s integration limit, so a stuck call ends in our logs, not a gateway 503. */
export const TIMEOUT = Duration.millis(FUNCTION_TIMEOUT_MS);

/** Powertools Tracer (X-Ray SDK) calls `require` at runtime, which an ESM bundle lacks. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export const BUNDLING: BundlingOptions = {
  // Local esbuild only: this project never bundles in Docker.
  forceDockerBundling: false,
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  target: 'node22',
  sourceMap: false,
  bundleAwsSDK: true,
};

/**
 * A function that renders PDFs (the invoice function; the history function, for statements; the mailer): the same
 * bundle, plus the PDF engine as a second file beside it (`pdf-engine.mjs`: pdfkit and fontkit, ~0.9 MB
 * minified; it draws the invoice, the statement and the credit note) and the two Noto Sans fonts in `fonts/`. The
 * bundle imports the engine on the first PDF only (shared/render/engines.ts), so the function's
 * start — module loading, cold start — is what it was without PDFs (docs/decisions.md "PDF: pdfkit and Noto Sans").
 */
export const PDF_BUNDLING: BundlingOptions = {
  ...BUNDLING,
  // The KMS client opens Paystack's sealed keys (docs/getting-paid-online.md "Connecting Paystack") only when a
  // request first needs one, so it is taken from the Lambda runtime's own AWS SDK instead of being bundled: bundled,
  // it would put the invoice function over its 700 KB bundle budget for code no cold start runs
  // (docs/deploying.md "AWS SDK: bundled").
  externalModules: ['@aws-sdk/client-kms'],
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      [
        `"${inputDir}/node_modules/.bin/esbuild" "${inputDir}/shared/render/pdf-engine.ts"`,
        '--bundle --platform=node --format=esm --target=node22 --minify --main-fields=module,main --log-level=warning',
        `"--banner:js=${ESM_REQUIRE_BANNER}" "--outfile=${outputDir}/${PDF_ENGINE_BUNDLE_FILE}"`,
      ].join(' '),
      `mkdir -p "${outputDir}/${BUNDLED_FONT_DIR}"`,
      ...Object.values(FONT_FILES).map(
        (file) => `cp "${inputDir}/node_modules/${FONT_PACKAGE}/${file}" "${outputDir}/${BUNDLED_FONT_DIR}/"`,
      ),
    ],
  },
};

/**
 * A function that also serves e-invoices (the invoice function): PDF_BUNDLING plus the UBL engine as a file of its own
 * (`ubl-engine.mjs`: xmlbuilder2, ~0.3 MB minified), imported on the first e-invoice only (shared/render/engines.ts).
 */
export const PDF_AND_UBL_BUNDLING: BundlingOptions = {
  ...PDF_BUNDLING,
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      ...(PDF_BUNDLING.commandHooks?.afterBundling(inputDir, outputDir) ?? []),
      [
        `"${inputDir}/node_modules/.bin/esbuild" "${inputDir}/shared/render/ubl/xml.ts"`,
        '--bundle --platform=node --format=esm --target=node22 --minify --main-fields=module,main --log-level=warning',
        `"--banner:js=${ESM_REQUIRE_BANNER}" "--outfile=${outputDir}/${UBL_ENGINE_BUNDLE_FILE}"`,
      ].join(' '),
    ],
  },
};
