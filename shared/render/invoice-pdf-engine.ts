/**
 * The PDF engine: pdfkit with Noto Sans (docs/decisions.md "PDF: pdfkit and Noto Sans"). Loaded only by
 * `renderInvoicePdf` (./invoice-pdf.ts), on the first PDF a process renders, so that the API functions' start does
 * not grow; deployed it is its own file beside the function's bundle, with the fonts (infra/function-settings.ts).
 *
 * The fonts are parsed once per process and reused: parsing Noto Sans's layout tables is most of a first render's
 * cost. pdfkit embeds a subset of each font (only the glyphs used) with a ToUnicode map, so the text stays selectable
 * and a 20-item invoice stays far below 100 KB; each document registers its own view of the fonts (./pdf-font.ts), so
 * that map is the text the document draws, whatever the process rendered before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { InvoiceDocument } from './invoice-document.ts';
import { drawInvoice, type PdfFonts } from './invoice-pdf-layout.ts';
import { BUNDLED_FONT_DIR, FONT_FILES, FONT_PACKAGE } from './pdf-assets.ts';
import { PdfFont } from './pdf-font.ts';

/** A font file: beside the bundle when deployed, else from the font package in node_modules. */
export function fontPath(file: string): string {
  const bundled = fileURLToPath(new URL(`./${BUNDLED_FONT_DIR}/${file.split('/').pop()}`, import.meta.url));
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve(`${FONT_PACKAGE}/${file}`);
}

type LoadedFonts = { regular: PdfFont; bold: PdfFont };
let fonts: LoadedFonts | undefined;

function loadFonts(): LoadedFonts {
  const open = (file: string) => new PdfFont(fontkit.create(readFileSync(fontPath(file))) as fontkit.Font);
  fonts ??= { regular: open(FONT_FILES.regular), bold: open(FONT_FILES.bold) };
  return fonts;
}

const A4 = 'A4';
const MARGIN = 48;

/** Renders the document as an A4 PDF. */
export async function drawInvoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  const loaded = loadFonts();
  const pdf = new PDFDocument({
    size: A4,
    margin: MARGIN,
    bufferPages: true,
    // No default font: pdfkit would load Helvetica's metrics, which the bundle does not ship and nothing uses.
    font: null as unknown as string,
    info: {
      Title: `Invoice ${document.number} from ${document.merchant.name}`,
      Author: document.merchant.name,
      Subject: `Invoice ${document.number}, reference ${document.referenceCode}`,
      Creator: 'Invoicing API',
      Producer: 'pdfkit',
    },
    lang: 'en',
    displayTitle: true,
  });
  // pdfkit takes a parsed fontkit font as well as its bytes (its typings know only the latter).
  pdf.registerFont('regular', loaded.regular.forDocument() as unknown as Buffer);
  pdf.registerFont('bold', loaded.bold.forDocument() as unknown as Buffer);
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  const names: PdfFonts = { regular: 'regular', bold: 'bold' };
  drawInvoice(pdf, document, names);
  pdf.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
