/**
 * What every PDF the service draws shares (docs/decisions.md "PDF: pdfkit and Noto Sans"): the fonts, parsed once per
 * process and registered per document (./pdf-font.ts, so each document's text layer is what it draws), an A4 document
 * and its bytes, and the few drawing helpers the invoice (./pdf-engine.ts), the statement
 * (./statement-pdf.ts) and the credit note (./credit-note-pdf.ts) lay out their pages with. Part of the PDF engine: loaded on the first PDF only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { Logo } from '../domain/logo.ts';
import { BUNDLED_FONT_DIR, FONT_FILES, FONT_PACKAGE } from './engine-files.ts';
import type { InvoiceDocument } from './invoice-document.ts';
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

/** Numbers in their columns on one row, right-aligned (an empty cell draws nothing). */
export function writeNumbers(pdf: Pdf, frame: Frame, top: number, cells: [string, Column][], size: number): void {
  for (const [text, column] of cells)
    if (text) writeNumber(pdf, text, frame.left + column.x - 6 + column.width, top, column.width, size);
}

/** A table's column: its x offset from the left margin, and its width. */
export interface Column {
  x: number;
  width: number;
}

/** A column's name in the heading row; numbers' columns are right-aligned. */
export interface ColumnHeading {
  text: string;
  column: Column;
  align: 'left' | 'right';
}

/** A table's heading row: a grey band with the columns' names. Returns the y of its first row. */
export function drawTableHeader(
  pdf: Pdf,
  fonts: PdfFonts,
  frame: Frame,
  top: number,
  headings: readonly ColumnHeading[],
): number {
  pdf.rect(frame.left, top, frame.width, 20).fill('#f3f4f6');
  pdf.font(fonts.bold).fontSize(9).fillColor(MUTED);
  for (const { text, column, align } of headings)
    write(pdf, text, frame.left + column.x + (align === 'left' ? 6 : -6), top + 5, { width: column.width, align });
  return top + 26;
}

/** A table's rows: how high each is and how it is drawn, under which heading row. */
export interface TableRows<Row> {
  headings: readonly ColumnHeading[];
  rows: readonly Row[];
  height: (row: Row) => number;
  draw: (row: Row, frame: Frame, top: number, height: number) => void;
}

/**
 * The rows from `top` down, over as many pages as they need, the heading row repeated at the top of each new page.
 * Returns the y below the last row.
 */
export function drawTableRows<Row>(pdf: Pdf, fonts: PdfFonts, top: number, table: TableRows<Row>): number {
  let frame = frameOf(pdf);
  let y = top;
  for (const row of table.rows) {
    const height = table.height(row);
    if (y + height > frame.bottom) {
      pdf.addPage();
      frame = frameOf(pdf);
      y = drawTableHeader(pdf, fonts, frame, frame.top, table.headings);
    }
    table.draw(row, frame, y, height);
    y += height;
  }
  return y;
}

/** The thin rule that closes a table's row of `height` drawn at `top`. */
export function drawRowRule(pdf: Pdf, frame: Frame, top: number, height: number): void {
  pdf
    .moveTo(frame.left, top + height - 4)
    .lineTo(frame.right, top + height - 4)
    .lineWidth(0.5)
    .stroke(RULE);
}

/**
 * Draws on every page once the document is laid out (pdfkit buffers the pages, so "of N" is known): `mark` is given
 * the page's frame, its number and the count, and may write in the bottom margin.
 */
export function markEachPage(pdf: Pdf, mark: (frame: Frame, page: number, count: number) => void): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    pdf.switchToPage(index);
    const frame = frameOf(pdf);
    const bottomMargin = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0; // writing in the margin must not start a new page
    mark(frame, index - start + 1, count);
    pdf.page.margins.bottom = bottomMargin;
  }
}

/** A page's footer line, centred under its content. */
export function writeFooter(pdf: Pdf, fonts: PdfFonts, frame: Frame, text: string): void {
  pdf.font(fonts.regular).fontSize(8).fillColor(MUTED);
  write(pdf, text, frame.left, frame.bottom + 14, { width: frame.width, align: 'center', lineBreak: false });
}

/**
 * A labelled block (BILL TO, REASON …): the label, its first line in bold, the others under it in muted text. Returns
 * the y `gap` below it.
 */
export function drawLabelled(
  pdf: Pdf,
  fonts: PdfFonts,
  frame: Frame,
  top: number,
  block: { label: string; lines: readonly string[]; gap: number },
): number {
  pdf.font(fonts.bold).fontSize(8).fillColor(MUTED);
  let y = write(pdf, block.label, frame.left, top, { characterSpacing: 0.6 });
  pdf.font(fonts.bold).fontSize(11).fillColor(INK);
  y = write(pdf, block.lines[0] ?? '', frame.left, y + 2, { width: frame.width });
  pdf.font(fonts.regular).fontSize(10).fillColor(MUTED);
  for (const line of block.lines.slice(1)) y = write(pdf, line, frame.left, y + 1, { width: frame.width });
  return y + block.gap;
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
