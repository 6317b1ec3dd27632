/**
 * `renderCreditNotePdf(document)`: a credit note as an A4 PDF (docs/tax.md "Credit notes"). Its engine (pdfkit, fontkit
 * and the fonts, through ./credit-note-pdf-engine.ts) is imported on the first call only, as the invoice's is
 * (./invoice-pdf.ts), so importing this module costs the invoice function nothing at start.
 *
 * Deployed, the engine is a file of its own beside the function's bundle (`CREDIT_NOTE_PDF_ENGINE_BUNDLE_FILE`, built by
 * infra/function-settings.ts); from source (npm start, the tests) it is the TypeScript module. The specifier is chosen
 * at run time, so the bundler leaves the import alone instead of inlining the engine.
 */
import type { CreditNoteDocument } from './credit-note-document.ts';
import { CREDIT_NOTE_PDF_ENGINE_BUNDLE_FILE } from './pdf-assets.ts';

type Engine = typeof import('./credit-note-pdf-engine.ts');

const engineSpecifier = (): string =>
  import.meta.url.endsWith('.ts') ? './credit-note-pdf-engine.ts' : `./${CREDIT_NOTE_PDF_ENGINE_BUNDLE_FILE}`;

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

/** Renders the credit note as a PDF (bytes); the first call in a process also loads the engine. */
export async function renderCreditNotePdf(document: CreditNoteDocument): Promise<Uint8Array> {
  return (await loadEngine()).drawCreditNotePdf(document);
}
