/**
 * What every PDF the service draws shares (docs/decisions.md "PDF: pdfkit and Noto Sans"): the fonts, parsed once per
 * process and registered per document (./pdf-font.ts, so each document's text layer is what it draws), an A4 document
 * and its bytes, and the few drawing helpers the invoice (./invoice-pdf-engine.ts) and the statement
 * (./statement-pdf.ts) lay out their pages with. Part of the PDF engine: loaded on the first PDF only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { Logo } from '../domain/logo.ts';
import type { InvoiceDocument } from './invoice-document.ts';
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

export type Pdf = PDFKit.PDFDocument;

export interface PdfFonts {
  regular: string;
  bold: string;
}

export interface PdfInfo {
  Title: string;
  Author: string;
  Subject: string;
}

const MARGIN = 48;

/** An A4 document with the fonts registered for it, drawn by `draw`; its bytes once it ends. */
export async function renderA4(info: PdfInfo, draw: (pdf: Pdf, fonts: PdfFonts) => void): Promise<Uint8Array> {
  const loaded = loadFonts();
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    // No default font: pdfkit would load Helvetica's metrics, which the bundle does not ship and nothing uses.
    font: null as unknown as string,
    info: { ...info, Creator: 'Invoicing API', Producer: 'pdfkit' },
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
  draw(pdf, { regular: 'regular', bold: 'bold' });
  pdf.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

export const INK = '#111827';
export const MUTED = '#4b5563';
export const RULE = '#e5e7eb';

export interface Frame {
  top: number;
  left: number;
  right: number;
  width: number;
  /** Lowest y the content may reach before a new page. */
  bottom: number;
}

export const frameOf = (pdf: Pdf): Frame => {
  const { margins, width, height } = pdf.page;
  return {
    top: margins.top,
    left: margins.left,
    right: width - margins.right,
    width: width - margins.left - margins.right,
    bottom: height - margins.bottom,
  };
};

export function write(pdf: Pdf, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}): number {
  pdf.text(text, x, y, options);
  return pdf.y;
}

/**
 * A number (an amount, a quantity) on one line, right-aligned at `right`: at `size`, or as much smaller as makes it fit
 * `width` (the largest amounts, 999,999,999,999.99, in a narrow column). Drawn without a width, so pdfkit never
 * wraps it: a number is never broken inside. Returns the y below the line at `size`.
 */
export function writeNumber(pdf: Pdf, text: string, right: number, y: number, width: number, size: number): number {
  const natural = pdf.fontSize(size).widthOfString(text);
  const lineHeight = pdf.currentLineHeight();
  pdf.fontSize(natural > width ? (size * width) / natural : size);
  const centred = y + (lineHeight - pdf.currentLineHeight()) / 2;
  pdf.text(text, right - pdf.widthOfString(text), centred, { lineBreak: false });
  pdf.fontSize(size);
  return y + lineHeight;
}

/** Moves to a new page when `height` does not fit below `top`; returns where to draw. */
export function room(pdf: Pdf, top: number, height: number): number {
  if (top + height <= frameOf(pdf).bottom) return top;
  pdf.addPage();
  return frameOf(pdf).top;
}

/** The largest box a logo is drawn in, in points (it keeps its proportions, and is never enlarged). */
const LOGO_BOX = { width: 160, height: 48 };

/** Draws the merchant's logo at (x, y), when there is one; returns the y below it. */
export function drawLogo(pdf: Pdf, logo: Logo | undefined, x: number, y: number): number {
  if (!logo) return y;
  const scale = Math.min(LOGO_BOX.width / logo.width, LOGO_BOX.height / logo.height, 1);
  const [width, height] = [logo.width * scale, logo.height * scale];
  pdf.image(Buffer.from(logo.bytes), x, y, { width, height });
  return y + height + 8;
}

/** What a document's heading shows on its right: its title, the facts under it, and a coloured mark (a status). */
export interface Heading {
  title: string;
  facts: readonly string[];
  mark?: { text: string; colour: string };
}

/**
 * A document's heading, the same on the invoice, the statement and the credit note: the merchant (logo, name,
 * address, contacts) on the left, the document's title and facts on the right. Returns the y below it.
 */
export function drawHeading(
  pdf: Pdf,
  fonts: PdfFonts,
  frame: Frame,
  merchant: InvoiceDocument['merchant'],
  heading: Heading,
): number {
  const half = frame.width / 2;
  const top = drawLogo(pdf, merchant.logo, frame.left, frame.top);
  pdf.font(fonts.bold).fontSize(18).fillColor(INK);
  let left = write(pdf, merchant.name, frame.left, top, { width: half + 20 });
  pdf.font(fonts.regular).fontSize(9).fillColor(MUTED);
  for (const line of merchant.address) left = write(pdf, line, frame.left, left + 1, { width: half + 20 });
  for (const contact of merchant.contacts)
    left = write(pdf, `${contact.label}: ${contact.value}`, frame.left, left + 1, { width: half + 20 });
  const x = frame.left + half + 30;
  const width = frame.right - x;
  pdf.font(fonts.bold).fontSize(22).fillColor(INK);
  let right = write(pdf, heading.title, x, frame.top - 2, { width, align: 'right' });
  pdf.font(fonts.regular).fontSize(10);
  for (const fact of heading.facts) right = write(pdf, fact, x, right + 2, { width, align: 'right' });
  if (heading.mark) {
    pdf.font(fonts.bold).fontSize(11).fillColor(heading.mark.colour);
    right = write(pdf, heading.mark.text, x, right + 4, { width, align: 'right' });
  }
  return Math.max(left, right) + 22;
}
