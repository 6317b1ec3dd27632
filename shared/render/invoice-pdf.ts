/**
 * `renderInvoicePdf(document)`: the invoice as an A4 PDF (docs/sending-invoices.md "The PDF"). The engine (pdfkit,
 * fontkit and the fonts: ./invoice-pdf-engine.ts) is imported on the first call only, so that importing this module —
 * as the invoice function and the mailer do — costs nothing at start (docs/decisions.md "PDF: pdfkit and Noto Sans").
 *
 * Deployed, the engine is `invoice-pdf-engine.mjs` beside the function's bundle (infra/function-settings.ts
 * `PDF_BUNDLING`; ./lazy-engine.ts).
 */
import type { InvoiceDocument } from './invoice-document.ts';
import { engineUrl, lazyEngine } from './lazy-engine.ts';
import { PDF_ENGINE_BUNDLE_FILE } from './pdf-assets.ts';
import type { StatementDocument } from './statement-document.ts';

type Engine = typeof import('./invoice-pdf-engine.ts');

const loadEngine = lazyEngine<Engine>(() =>
  engineUrl(import.meta.url, './invoice-pdf-engine.ts', PDF_ENGINE_BUNDLE_FILE),
);

/** Renders the invoice as a PDF (bytes); the first call in a process also loads the engine and parses the fonts. */
export async function renderInvoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  return (await loadEngine()).drawInvoicePdf(document);
}

/** Renders a client's statement as a PDF (bytes), with the same engine. */
export async function renderStatementPdf(document: StatementDocument): Promise<Uint8Array> {
  return (await loadEngine()).drawStatementPdf(document);
}
