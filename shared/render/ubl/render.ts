/**
 * `renderUbl(document)`: the e-invoice as UBL 2.1 XML (docs/e-invoice.md). The engine (./xml.ts and xmlbuilder2,
 * ~0.3 MB minified) is imported on the first call only, so that importing this module costs an API function nothing
 * at start, as the PDF engine does (shared/render/invoice-pdf.ts).
 *
 * Deployed, the engine is `UBL_ENGINE_BUNDLE_FILE` beside the function's bundle (../lazy-engine.ts).
 */
import { engineUrl, lazyEngine } from '../lazy-engine.ts';
import type { UblDocument } from './document.ts';

type Engine = typeof import('./xml.ts');

/** The engine's file name beside a deployed bundle. */
export const UBL_ENGINE_BUNDLE_FILE = 'ubl-engine.mjs';

const loadEngine = lazyEngine<Engine>(() => engineUrl(import.meta.url, './xml.ts', UBL_ENGINE_BUNDLE_FILE));

/** The document as UBL XML; the first call in a process also loads the engine. Throws a UblModelError (./checks.ts). */
export async function renderUbl(document: UblDocument): Promise<string> {
  return (await loadEngine()).buildUbl(document);
}
