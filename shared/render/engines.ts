/**
 * The documents drawn by an engine loaded on its first use: the PDFs (invoice, statement, credit note: one engine,
 * pdfkit with fontkit and the fonts, ./pdf-engine.ts; docs/decisions.md "PDF: pdfkit and Noto Sans") and the
 * e-invoice's UBL XML (xmlbuilder2, ./ubl/xml.ts; docs/e-invoice.md). Importing this module costs a function nothing
 * at start; the first document of a kind in a process loads its engine.
 *
 * From source (npm start, the tests) an engine is its TypeScript module; deployed, a file beside the function's
 * bundle (infra/function-settings.ts). Its URL is computed at run time, an import the bundler leaves alone instead
 * of inlining the engine. A failed load is tried again by the next call.
 */
import type { CreditNoteDocument } from './credit-note-document.ts';
import { PDF_ENGINE_BUNDLE_FILE, UBL_ENGINE_BUNDLE_FILE } from './engine-files.ts';
import type { InvoiceDocument } from './invoice-document.ts';
import type { StatementDocument } from './statement-document.ts';
import type { UblDocument } from './ubl/document.ts';

function lazyEngine<Engine>(sourceFile: string, bundleFile: string): () => Promise<Engine> {
  let engine: Promise<Engine> | undefined;
  return () => {
    if (!engine) {
      const url = new URL(import.meta.url.endsWith('.ts') ? sourceFile : `./${bundleFile}`, import.meta.url);
      engine = import(url.href) as Promise<Engine>;
      engine.catch(() => {
        engine = undefined;
      });
    }
    return engine;
  };
}

const pdfEngine = lazyEngine<typeof import('./pdf-engine.ts')>('./pdf-engine.ts', PDF_ENGINE_BUNDLE_FILE);
const ublEngine = lazyEngine<typeof import('./ubl/xml.ts')>('./ubl/xml.ts', UBL_ENGINE_BUNDLE_FILE);

/** The invoice as an A4 PDF (docs/sending-invoices.md "The PDF"). */
export async function renderInvoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  return (await pdfEngine()).drawInvoicePdf(document);
}

/** A client's statement as an A4 PDF (docs/receivables.md "One client: the statement"). */
export async function renderStatementPdf(document: StatementDocument): Promise<Uint8Array> {
  return (await pdfEngine()).drawStatementPdf(document);
}

/** A credit note as an A4 PDF (docs/tax.md "Credit notes"). */
export async function renderCreditNotePdf(document: CreditNoteDocument): Promise<Uint8Array> {
  return (await pdfEngine()).drawCreditNotePdf(document);
}

/** The document as UBL 2.1 XML. Throws a UblModelError (./ubl/checks.ts). */
export async function renderUbl(document: UblDocument): Promise<string> {
  return (await ublEngine()).buildUbl(document);
}
