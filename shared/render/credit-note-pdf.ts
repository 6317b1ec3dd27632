/**
 * `renderCreditNotePdf(document)`: a credit note as an A4 PDF (docs/tax.md "Credit notes"). Its engine (pdfkit, fontkit
 * and the fonts, through ./credit-note-pdf-engine.ts) is imported on the first call only, as the invoice's is
 * (./invoice-pdf.ts), so importing this module costs the invoice function nothing at start.
 *
 * Deployed, the engine is `CREDIT_NOTE_PDF_ENGINE_BUNDLE_FILE` beside the function's bundle (./lazy-engine.ts).
 */
import type { CreditNoteDocument } from './credit-note-document.ts';
import { engineUrl, lazyEngine } from './lazy-engine.ts';
import { CREDIT_NOTE_PDF_ENGINE_BUNDLE_FILE } from './pdf-assets.ts';

type Engine = typeof import('./credit-note-pdf-engine.ts');

const loadEngine = lazyEngine<Engine>(() =>
  engineUrl(import.meta.url, './credit-note-pdf-engine.ts', CREDIT_NOTE_PDF_ENGINE_BUNDLE_FILE),
);

/** Renders the credit note as a PDF (bytes); the first call in a process also loads the engine. */
export async function renderCreditNotePdf(document: CreditNoteDocument): Promise<Uint8Array> {
  return (await loadEngine()).drawCreditNotePdf(document);
}
