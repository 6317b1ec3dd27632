/**
 * The PDF engine: pdfkit with Noto Sans (docs/decisions.md "PDF: pdfkit and Noto Sans"). Loaded only by
 * `renderInvoicePdf` (./invoice-pdf.ts), on the first PDF a process renders, so that the API functions' start does
 * not grow; deployed it is its own file beside the function's bundle, with the fonts (infra/function-settings.ts).
 *
 * The fonts are parsed once per process and reused: parsing Noto Sans's layout tables is most of a first render's
 * cost. pdfkit embeds a subset of each font (only the glyphs used) with a ToUnicode map, so the text stays selectable
 * and a 20-item invoice stays far below 100 KB; each document registers its own view of the fonts (./pdf-font.ts), so
 * that map is the text the document draws, whatever the process rendered before.
 *
 * Below the engine, the invoice as it is drawn on the page (its layout).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { InvoiceDocument, LabelledValue } from './invoice-document.ts';
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

/*
 * The invoice drawn on A4 with pdfkit: the same content as the hosted page (./invoice-page.ts), in the same order.
 * Items flow over as many pages as they need, the table's header repeated; every page's footer names the invoice.
 * A voided invoice is marked VOID in its status and across each page.
 */

export interface PdfFonts {
  regular: string;
  bold: string;
}

type Pdf = PDFKit.PDFDocument;

const INK = '#111827';
const MUTED = '#4b5563';
const RULE = '#e5e7eb';
const STATUS_COLOURS: Record<InvoiceDocument['status'], string> = {
  paid: '#166534',
  unpaid: '#3730a3',
  partially_paid: '#854d0e',
  overdue: '#991b1b',
  void: '#991b1b',
};

interface Frame {
  top: number;
  left: number;
  right: number;
  width: number;
  /** Lowest y the content may reach before a new page. */
  bottom: number;
}

const frameOf = (pdf: Pdf): Frame => {
  const { margins, width, height } = pdf.page;
  return {
    top: margins.top,
    left: margins.left,
    right: width - margins.right,
    width: width - margins.left - margins.right,
    bottom: height - margins.bottom,
  };
};

/** The item table's columns: x offsets from the left margin and widths (numbers right-aligned). */
const COLUMNS = {
  item: { x: 0, width: 262 },
  qty: { x: 266, width: 40 },
  unit: { x: 310, width: 92 },
  line: { x: 406, width: 93 },
};

function write(pdf: Pdf, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}): number {
  pdf.text(text, x, y, options);
  return pdf.y;
}

/**
 * A number (an amount, a quantity) on one line, right-aligned at `right`: at `size`, or as much smaller as makes it fit
 * `width` (the largest amounts, 999,999,999,999.99, in a narrow column). Drawn without a width, so pdfkit never
 * wraps it: a number is never broken inside. Returns the y below the line at `size`.
 */
function writeNumber(pdf: Pdf, text: string, right: number, y: number, width: number, size: number): number {
  const natural = pdf.fontSize(size).widthOfString(text);
  const lineHeight = pdf.currentLineHeight();
  pdf.fontSize(natural > width ? (size * width) / natural : size);
  const centred = y + (lineHeight - pdf.currentLineHeight()) / 2;
  pdf.text(text, right - pdf.widthOfString(text), centred, { lineBreak: false });
  pdf.fontSize(size);
  return y + lineHeight;
}

function drawHeader(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, frame: Frame): number {
  const half = frame.width / 2;
  pdf.font(fonts.bold).fontSize(18).fillColor(INK);
  let left = write(pdf, doc.merchant.name, frame.left, frame.top, { width: half + 20 });
  pdf.font(fonts.regular).fontSize(9).fillColor(MUTED);
  for (const line of doc.merchant.address) left = write(pdf, line, frame.left, left + 1, { width: half + 20 });
  for (const contact of doc.merchant.contacts)
    left = write(pdf, `${contact.label}: ${contact.value}`, frame.left, left + 1, { width: half + 20 });
  const x = frame.left + half + 30;
  const width = frame.right - x;
  pdf.font(fonts.bold).fontSize(22).fillColor(INK);
  let right = write(pdf, doc.status === 'void' ? 'INVOICE — VOID' : 'INVOICE', x, frame.top - 2, {
    width,
    align: 'right',
  });
  pdf.font(fonts.regular).fontSize(10);
  const facts = [
    `Invoice ${doc.number}`,
    `Reference ${doc.referenceCode}`,
    `Issued ${doc.issued.text}`,
    `Due ${doc.due.text}`,
  ];
  for (const fact of facts) right = write(pdf, fact, x, right + 2, { width, align: 'right' });
  pdf.font(fonts.bold).fontSize(11).fillColor(STATUS_COLOURS[doc.status]);
  right = write(pdf, doc.statusLabel.toUpperCase(), x, right + 4, { width, align: 'right' });
  return Math.max(left, right) + 22;
}

function drawBillTo(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, frame: Frame, top: number): number {
  pdf.font(fonts.bold).fontSize(8).fillColor(MUTED);
  let y = write(pdf, 'BILL TO', frame.left, top, { characterSpacing: 0.6 });
  pdf.font(fonts.bold).fontSize(11).fillColor(INK);
  y = write(pdf, doc.client.name, frame.left, y + 2, { width: frame.width });
  if (doc.client.company) {
    pdf.font(fonts.regular).fontSize(10).fillColor(MUTED);
    y = write(pdf, doc.client.company, frame.left, y + 1, { width: frame.width });
  }
  return y + 18;
}

function drawTableHeader(pdf: Pdf, fonts: PdfFonts, frame: Frame, top: number): number {
  pdf.rect(frame.left, top, frame.width, 20).fill('#f3f4f6');
  pdf.font(fonts.bold).fontSize(9).fillColor(MUTED);
  const heading = (text: string, column: { x: number; width: number }, align: 'left' | 'right') =>
    write(pdf, text, frame.left + column.x + (align === 'left' ? 6 : -6), top + 5, { width: column.width, align });
  heading('Item', COLUMNS.item, 'left');
  heading('Qty', COLUMNS.qty, 'right');
  heading('Unit cost', COLUMNS.unit, 'right');
  heading('Amount', COLUMNS.line, 'right');
  return top + 26;
}

function rowHeight(pdf: Pdf, line: InvoiceDocument['lines'][number], fonts: PdfFonts): number {
  const width = COLUMNS.item.width - 6;
  let height = pdf.font(fonts.bold).fontSize(10).heightOfString(line.name, { width });
  if (line.description) height += 1 + pdf.font(fonts.regular).fontSize(8.5).heightOfString(line.description, { width });
  return height + 10;
}

function drawRow(
  pdf: Pdf,
  line: InvoiceDocument['lines'][number],
  fonts: PdfFonts,
  frame: Frame,
  top: number,
  height: number,
) {
  const x = frame.left + 6;
  pdf.font(fonts.bold).fontSize(10).fillColor(INK);
  const below = write(pdf, line.name, x, top, { width: COLUMNS.item.width - 6 });
  if (line.description) {
    pdf.font(fonts.regular).fontSize(8.5).fillColor(MUTED);
    write(pdf, line.description, x, below + 1, { width: COLUMNS.item.width - 6 });
  }
  pdf.font(fonts.regular).fillColor(INK);
  for (const [text, column] of [
    [line.quantity, COLUMNS.qty],
    [line.unitCost, COLUMNS.unit],
    [line.lineTotal, COLUMNS.line],
  ] as const)
    writeNumber(pdf, text, frame.left + column.x - 6 + column.width, top, column.width, 10);
  pdf
    .moveTo(frame.left, top + height - 4)
    .lineTo(frame.right, top + height - 4)
    .lineWidth(0.5)
    .stroke(RULE);
}

function drawItems(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  let frame = frameOf(pdf);
  let y = drawTableHeader(pdf, fonts, frame, top);
  for (const line of doc.lines) {
    const height = rowHeight(pdf, line, fonts);
    if (y + height > frame.bottom) {
      pdf.addPage();
      frame = frameOf(pdf);
      y = drawTableHeader(pdf, fonts, frame, frame.top);
    }
    drawRow(pdf, line, fonts, frame, y, height);
    y += height;
  }
  return y + 6;
}

/** Moves to a new page when `height` does not fit below `top`; returns where to draw. */
function room(pdf: Pdf, top: number, height: number): number {
  if (top + height <= frameOf(pdf).bottom) return top;
  pdf.addPage();
  return frameOf(pdf).top;
}

function drawTotals(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  const frame = frameOf(pdf);
  let y = room(pdf, top, 70);
  const x = frame.right - 230;
  const rows: [string, string, boolean][] = [
    ['Total', doc.total, false],
    ['Amount paid', doc.amountPaid, false],
    ['Amount due', doc.amountDue, true],
  ];
  for (const [label, value, strong] of rows) {
    pdf
      .font(strong ? fonts.bold : fonts.regular)
      .fontSize(strong ? 12 : 10)
      .fillColor(strong ? INK : MUTED);
    write(pdf, label, x, y, { width: 110, lineBreak: false });
    pdf.fillColor(INK);
    y = writeNumber(pdf, value, x + 230, y, 120, strong ? 12 : 10) + 4;
  }
  return y + 16;
}

function drawList(pdf: Pdf, items: readonly LabelledValue[], fonts: PdfFonts, x: number, top: number): number {
  let y = top;
  for (const item of items) {
    pdf.font(fonts.regular).fontSize(10).fillColor(MUTED);
    write(pdf, item.label, x, y, { width: 110, lineBreak: false });
    pdf.font(fonts.bold).fillColor(INK);
    y = write(pdf, item.value, x + 110, y, { width: 330 }) + 2;
  }
  return y;
}

/** PAID with its date, and each payment (date, channel, amount; reversed ones struck through), as the page lists them. */
function drawPayments(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  const receipts = doc.payments?.receipts ?? [];
  const paidOn = doc.status === 'paid' ? doc.payments?.paidOn : undefined;
  if (receipts.length === 0 && !paidOn) return top;
  const frame = frameOf(pdf);
  let y = room(pdf, top, 30 + receipts.length * 14);
  if (paidOn) {
    pdf.font(fonts.bold).fontSize(12).fillColor(STATUS_COLOURS.paid);
    y = write(pdf, `PAID on ${paidOn.text}`, frame.left, y) + 8;
  }
  if (receipts.length > 0) {
    pdf.font(fonts.bold).fontSize(8).fillColor(MUTED);
    y = write(pdf, 'PAYMENTS', frame.left, y, { characterSpacing: 0.6 }) + 4;
  }
  for (const receipt of receipts) {
    pdf
      .font(fonts.regular)
      .fontSize(10)
      .fillColor(receipt.reversed ? MUTED : INK);
    const strike = receipt.reversed;
    const label = `${receipt.date.text} · ${receipt.channel}${receipt.reversed ? ' (reversed)' : ''}`;
    write(pdf, label, frame.left, y, { width: 300, lineBreak: false, strike });
    y = write(pdf, receipt.amount, frame.right - 150, y, { width: 150, align: 'right', lineBreak: false, strike }) + 3;
    if (receipt.refund) {
      pdf.fontSize(8.5).fillColor(MUTED);
      const refund = `${receipt.refund.received} received, ${receipt.refund.refunded} refunded`;
      y = write(pdf, refund, frame.left, y, { width: frame.width, lineBreak: false }) + 3;
    }
  }
  return y + 14;
}

function drawPaymentInstructions(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): void {
  const settled = doc.status === 'void' || doc.status === 'paid';
  if ((doc.paymentInstructions.length === 0 && !doc.payByTransfer) || settled) return;
  const frame = frameOf(pdf);
  let y = room(pdf, top, 60 + doc.paymentInstructions.length * 16);
  pdf.font(fonts.bold).fontSize(8).fillColor(MUTED);
  y = write(pdf, 'HOW TO PAY', frame.left, y, { characterSpacing: 0.6 }) + 4;
  if (doc.payByTransfer) {
    pdf.font(fonts.bold).fontSize(10).fillColor(INK);
    y = write(pdf, doc.payByTransfer, frame.left, y, { width: frame.width }) + 6;
  }
  y = drawList(pdf, doc.paymentInstructions, fonts, frame.left, y);
  pdf.font(fonts.regular).fontSize(9).fillColor(MUTED);
  write(pdf, `Quote the reference ${doc.referenceCode} with your payment.`, frame.left, y + 4, { width: frame.width });
}

/** Footer and VOID mark on every page (pdfkit buffers the pages, so "of N" is known). */
function drawPageMarks(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    pdf.switchToPage(index);
    const frame = frameOf(pdf);
    const bottomMargin = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0; // writing in the margin must not start a new page
    if (doc.status === 'void') {
      pdf.save().rotate(-35, { origin: [pdf.page.width / 2, pdf.page.height / 2] });
      pdf.font(fonts.bold).fontSize(110).fillColor('#dc2626').fillOpacity(0.12);
      write(pdf, 'VOID', 0, pdf.page.height / 2 - 70, { width: pdf.page.width, align: 'center', lineBreak: false });
      pdf.restore().fillOpacity(1);
    }
    pdf.font(fonts.regular).fontSize(8).fillColor(MUTED);
    const footer = `Invoice ${doc.number} · Reference ${doc.referenceCode} · Page ${index - start + 1} of ${count}`;
    write(pdf, footer, frame.left, frame.bottom + 14, { width: frame.width, align: 'center', lineBreak: false });
    if (doc.hostedUrl && index === start) {
      const text = `View online: ${doc.hostedUrl}`;
      write(pdf, text, frame.left, frame.bottom + 2, {
        width: frame.width,
        align: 'center',
        link: doc.hostedUrl,
        lineBreak: false,
      });
    }
    pdf.page.margins.bottom = bottomMargin;
  }
}

/** Draws the whole invoice onto `pdf` (its fonts registered under `fonts`' names). */
export function drawInvoice(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts): void {
  let y = drawHeader(pdf, doc, fonts, frameOf(pdf));
  y = drawBillTo(pdf, doc, fonts, frameOf(pdf), y);
  y = drawItems(pdf, doc, fonts, y);
  y = drawTotals(pdf, doc, fonts, y);
  y = drawPayments(pdf, doc, fonts, y);
  drawPaymentInstructions(pdf, doc, fonts, y);
  drawPageMarks(pdf, doc, fonts);
}
