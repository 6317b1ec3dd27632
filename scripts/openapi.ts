/**
 * `npm run openapi`: writes `openapi.json` (OpenAPI 3.1) from `shared/openapi/document.ts`.
 * `npm run openapi -- --capture-examples` first re-captures `shared/openapi/examples.json` from real
 * responses (in-memory DynamoDB Local + the local server; needs Java 17+); `--capture-examples=bank-transfers` only
 * the bank transfers' routes, keeping the other examples. Recapture after a change of a
 * response shape or message; the examples are committed so that the document is deterministic.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CapturedExamples } from '../shared/openapi/document.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const examplesFile = `${root}shared/openapi/examples.json`;
const documentFile = `${root}openapi.json`;

const captureArgument = process.argv.find((argument) => argument.startsWith('--capture-examples'));
if (captureArgument) {
  // Before the handlers are imported: no request logs or EMF lines in the terminal.
  process.env.LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const { captureExamples } = await import('./capture-examples.ts');
  const only = captureArgument === '--capture-examples=bank-transfers' ? 'bank-transfers' : undefined;
  const captured = await captureExamples(only);
  // One part's examples replace that part's routes' and leave the others' as the file has them.
  const kept: CapturedExamples = only
    ? JSON.parse(readFileSync(examplesFile, 'utf8'))
    : { requests: {}, responses: {} };
  const examples = {
    requests: { ...kept.requests, ...captured.requests },
    responses: { ...kept.responses, ...captured.responses },
  };
  writeFileSync(examplesFile, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`wrote ${examplesFile}`);
}

// Imported after the capture so that it reads the new examples.
const { renderOpenApiDocument } = await import('../shared/openapi/document.ts');
writeFileSync(documentFile, renderOpenApiDocument());
console.log(`wrote ${documentFile}`);
