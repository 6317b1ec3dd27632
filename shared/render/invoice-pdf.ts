/**
 * `renderInvoicePdf(document)`: the invoice as an A4 PDF (docs/sending-invoices.md "The PDF"). The engine (pdfkit,
 * fontkit and the fonts: ./invoice-pdf-engine.ts) is imported on the first call only, so that importing this module —
 * as the invoice function and the mailer do — costs nothing at start (docs/decisions.md "PDF: pdfkit and Noto Sans").
 *
 * Deployed, the engine is a separate file beside the function's bundle (`invoice-pdf-engine.mjs`, built by
 * infra/function-settings.ts `PDF_BUNDLING`); from source (npm start, the tests) it is the TypeScript module. The
 * specifier is chosen at run time, so the bundler leaves the import alone instead of inlining the engine.
 */
import type { InvoiceDocument } from './invoice-document.ts';
import { PDF_ENGINE_BUNDLE_FILE } from './pdf-assets.ts';
import type { StatementDocument } from './statement-document.ts';

type Engine = typeof import('./invoice-pdf-engine.ts');

const engineSpecifier = (): string =>
  import.meta.url.endsWith('.ts') ? './invoice-pdf-engine.ts' : `./${PDF_ENGINE_BUNDLE_FILE}`;

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

/** Renders the invoice as a PDF (bytes); the first call in a process also loads the engine and parses the fonts. */
export async function renderInvoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  return (await loadEngine()).drawInvoicePdf(document);
}

/** Renders a client's statement as a PDF (bytes), with the same engine. */
export async function renderStatementPdf(document: StatementDocument): Promise<Uint8Array> {
  return (await loadEngine()).drawStatementPdf(document);
}
