/**
 * `renderUbl(document)`: the e-invoice as UBL 2.1 XML (docs/e-invoice.md). The engine (./xml.ts and xmlbuilder2,
 * ~0.3 MB minified) is imported on the first call only, so that importing this module costs an API function nothing
 * at start, as the PDF engine does (shared/render/invoice-pdf.ts).
 *
 * From source (npm start, the tests) the engine is the TypeScript module; deployed, it is to be a separate file beside
 * the function's bundle (`UBL_ENGINE_BUNDLE_FILE`, built as infra/function-settings.ts builds the PDF engine). The
 * specifier is chosen at run time, so the bundler leaves the import alone instead of inlining the engine.
 */
import type { UblDocument } from './document.ts';

type Engine = typeof import('./xml.ts');

/** The engine's file name beside a deployed bundle. */
export const UBL_ENGINE_BUNDLE_FILE = 'ubl-engine.mjs';

const engineSpecifier = (): string => (import.meta.url.endsWith('.ts') ? './xml.ts' : `./${UBL_ENGINE_BUNDLE_FILE}`);

let engine: Promise<Engine> | undefined;

function loadEngine(): Promise<Engine> {
  if (!engine) {
    engine = import(engineSpecifier()) as Promise<Engine>;
    engine.catch(() => {
      engine = undefined; // a failed load is tried again by the next call
    });
  }
  return engine;
}

/** The document as UBL XML; the first call in a process also loads the engine. Throws a UblModelError (./checks.ts). */
export async function renderUbl(document: UblDocument): Promise<string> {
  return (await loadEngine()).buildUbl(document);
}
