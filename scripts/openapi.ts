/**
 * `npm run openapi`: writes `openapi.json` (OpenAPI 3.1) from `shared/openapi/document.ts`.
 * `npm run openapi -- --capture-examples` first re-captures `shared/openapi/examples.json` from real
 * responses (in-memory DynamoDB Local + the local server; needs Java 17+). Recapture after a change of a
 * response shape or message; the examples are committed so that the document is deterministic.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const examplesFile = `${root}shared/openapi/examples.json`;
const documentFile = `${root}openapi.json`;

if (process.argv.includes('--capture-examples')) {
  // Before the handlers are imported: no request logs or EMF lines in the terminal.
  process.env.LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const { captureExamples } = await import('./capture-examples.ts');
  const examples = await captureExamples();
  writeFileSync(examplesFile, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`wrote ${examplesFile}`);
}

// Imported after the capture so that it reads the new examples.
const { renderOpenApiDocument } = await import('../shared/openapi/document.ts');
writeFileSync(documentFile, renderOpenApiDocument());
console.log(`wrote ${documentFile}`);
