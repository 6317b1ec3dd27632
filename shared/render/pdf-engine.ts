/**
 * The PDF engine: pdfkit with Noto Sans (docs/decisions.md "PDF: pdfkit and Noto Sans"), for the invoice, the
 * statement (./statement-pdf.ts) and the credit note (./credit-note-pdf.ts). Loaded only by ./engines.ts, on the first
 * PDF a process renders, so that the API functions' start does not grow; deployed it is one file beside the
 * function's bundle, with the fonts (infra/function-settings.ts).
 *
 * The fonts are parsed once per process and reused: parsing Noto Sans's layout tables is most of a first render's
 * cost. pdfkit embeds a subset of each font (only the glyphs used) with a ToUnicode map, so the text stays selectable
 * and a 20-item invoice stays far below 100 KB; each document registers its own view of the fonts (./pdf-font.ts), so
 * that map is the text the document draws, whatever the process rendered before.
 *
 * Below the engine, the invoice as it is drawn on the page (its layout).
 */
import type { InvoiceDocument, LabelledValue } from './invoice-document.ts';
import {
  type Column,
  type ColumnHeading,
  drawHeading,
  drawLabelled,
  drawRowRule,
  drawTableHeader,
  drawTableRows,
  type Frame,
  frameOf,
  INK,
  MUTED,
  markEachPage,
  type Pdf,
  type PdfFonts,
  renderA4,
  room,
  write,
  writeFooter,
  writeNumber,
  writeNumbers,
} from './pdf-drawing.ts';

export { drawCreditNotePdf } from './credit-note-pdf.ts';
export { fontPath } from './pdf-drawing.ts';
export { drawStatementPdf } from './statement-pdf.ts';

/** Renders the document as an A4 PDF. */
export function drawInvoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  const info = {
    Title: `Invoice ${document.number} from ${document.merchant.name}`,
    Author: document.merchant.name,
    Subject: `Invoice ${document.number}, reference ${document.referenceCode}`,
  };
  return renderA4(info, (pdf, fonts) => drawInvoice(pdf, document, fonts));
}

/*
 * The invoice drawn on A4 with pdfkit: the same content as the hosted page (./invoice-page.ts), in the same order.
 * Items flow over as many pages as they need, the table's header repeated; every page's footer names the invoice.
 * A voided invoice is marked VOID in its status and across each page.
 */

const STATUS_COLOURS: Record<InvoiceDocument['status'], string> = {
  paid: '#166534',
  unpaid: '#3730a3',
  partially_paid: '#854d0e',
  overdue: '#991b1b',
  void: '#991b1b',
};

/** The item table's columns: x offsets from the left margin and widths (numbers right-aligned). */
const COLUMNS = {
  item: { x: 0, width: 262 },
  qty: { x: 266, width: 40 },
  unit: { x: 310, width: 92 },
  line: { x: 406, width: 93 },
};

const HEADINGS: readonly ColumnHeading[] = [
  { text: 'Item', column: COLUMNS.item, align: 'left' },
  { text: 'Qty', column: COLUMNS.qty, align: 'right' },
  { text: 'Unit cost', column: COLUMNS.unit, align: 'right' },
  { text: 'Amount', column: COLUMNS.line, align: 'right' },
];

function drawHeader(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, frame: Frame): number {
  return drawHeading(pdf, fonts, frame, doc.merchant, {
    title: doc.status === 'void' ? 'INVOICE — VOID' : 'INVOICE',
    facts: [
      `Invoice ${doc.number}`,
      `Reference ${doc.referenceCode}`,
      `Issued ${doc.issued.text}`,
      `Due ${doc.due.text}`,
    ],
    mark: { text: doc.statusLabel.toUpperCase(), colour: STATUS_COLOURS[doc.status] },
  });
}

function drawBillTo(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, frame: Frame, top: number): number {
  const { name, company, address } = doc.client;
  const lines = [name, ...(company ? [company] : []), ...address];
  return drawLabelled(pdf, fonts, frame, top, { label: 'BILL TO', lines, gap: 18 });
}

function rowHeight(pdf: Pdf, line: InvoiceDocument['lines'][number], fonts: PdfFonts): number {
  const width = COLUMNS.item.width - 6;
  let height = pdf.font(fonts.bold).fontSize(10).heightOfString(line.name, { width });
  if (line.description) height += 1 + pdf.font(fonts.regular).fontSize(8.5).heightOfString(line.description, { width });
  const notes = lineNotes(line);
  if (notes) height += 1 + pdf.font(fonts.regular).fontSize(8.5).heightOfString(notes, { width });
  return height + 10;
}

/** A line's discount and VAT category, under its description (as the page shows them). */
function lineNotes(line: InvoiceDocument['lines'][number]): string {
  return [line.discount ? `Discount ${line.discount}` : undefined, line.taxLabel].filter(Boolean).join(' · ');
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
  let under = below;
  pdf.font(fonts.regular).fontSize(8.5).fillColor(MUTED);
  if (line.description) under = write(pdf, line.description, x, under + 1, { width: COLUMNS.item.width - 6 });
  const notes = lineNotes(line);
  if (notes) write(pdf, notes, x, under + 1, { width: COLUMNS.item.width - 6 });
  pdf.font(fonts.regular).fillColor(INK);
  const cells: [string, Column][] = [
    [line.quantity, COLUMNS.qty],
    [line.unitCost, COLUMNS.unit],
    [line.lineTotal, COLUMNS.line],
  ];
  writeNumbers(pdf, frame, top, cells, 10);
  drawRowRule(pdf, frame, top, height);
}

function drawItems(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  const y = drawTableRows(pdf, fonts, drawTableHeader(pdf, fonts, frameOf(pdf), top, HEADINGS), {
    headings: HEADINGS,
    rows: doc.lines,
    height: (line) => rowHeight(pdf, line, fonts),
    draw: (line, frame, at, height) => drawRow(pdf, line, fonts, frame, at, height),
  });
  return y + 6;
}

/** The split (subtotal, discount, VAT per category) above the total: labels may wrap, amounts never do. */
function drawSplit(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  const frame = frameOf(pdf);
  let y = room(pdf, top, 16 * doc.split.length);
  const x = frame.right - 330;
  for (const row of doc.split) {
    pdf.font(fonts.regular).fontSize(9.5).fillColor(MUTED);
    const below = write(pdf, row.label, x, y, { width: 200 });
    pdf.fillColor(INK);
    y = Math.max(below, writeNumber(pdf, row.amount, x + 330, y, 120, 9.5)) + 3;
  }
  return doc.split.length > 0 ? y + 4 : y;
}

/** The merchant's notes and terms, those given, under the totals. */
function drawNotes(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  const frame = frameOf(pdf);
  let y = top;
  for (const [title, text] of [
    ['NOTES', doc.notes],
    ['TERMS', doc.terms],
  ] as const) {
    if (!text) continue;
    y = room(pdf, y, 40);
    pdf.font(fonts.bold).fontSize(8).fillColor(MUTED);
    y = write(pdf, title, frame.left, y, { characterSpacing: 0.6 }) + 2;
    pdf.font(fonts.regular).fontSize(9.5).fillColor(INK);
    y = write(pdf, text, frame.left, y, { width: frame.width }) + 12;
  }
  return y;
}

function drawTotals(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  const frame = frameOf(pdf);
  let y = room(pdf, drawSplit(pdf, doc, fonts, top), 70);
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
    if (receipt.withheld) {
      pdf.fontSize(8.5).fillColor(MUTED);
      const withheld = `and ${receipt.withheld} withholding tax deducted`;
      y = write(pdf, withheld, frame.left, y, { width: frame.width, lineBreak: false }) + 3;
    }
  }
  return y + 14;
}

/** The invoice's credit notes as the page lists them: number and day, amount, and the reason under them. */
function drawCreditNotes(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts, top: number): number {
  const notes = doc.payments?.creditNotes ?? [];
  if (notes.length === 0) return top;
  const frame = frameOf(pdf);
  let y = room(pdf, top, 30 + notes.length * 28);
  pdf.font(fonts.bold).fontSize(8).fillColor(MUTED);
  y = write(pdf, 'CREDIT NOTES', frame.left, y, { characterSpacing: 0.6 }) + 4;
  for (const note of notes) {
    y = room(pdf, y, 28);
    pdf.font(fonts.regular).fontSize(10).fillColor(INK);
    write(pdf, `${note.number} · ${note.date.text}`, frame.left, y, { width: 300, lineBreak: false });
    y = write(pdf, note.amount, frame.right - 150, y, { width: 150, align: 'right', lineBreak: false }) + 3;
    pdf.fontSize(8.5).fillColor(MUTED);
    y = write(pdf, note.reason, frame.left, y, { width: frame.width - 160 }) + 3;
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
  markEachPage(pdf, (frame, page, count) => {
    if (doc.status === 'void') {
      pdf.save().rotate(-35, { origin: [pdf.page.width / 2, pdf.page.height / 2] });
      pdf.font(fonts.bold).fontSize(110).fillColor('#dc2626').fillOpacity(0.12);
      write(pdf, 'VOID', 0, pdf.page.height / 2 - 70, { width: pdf.page.width, align: 'center', lineBreak: false });
      pdf.restore().fillOpacity(1);
    }
    writeFooter(pdf, fonts, frame, `Invoice ${doc.number} · Reference ${doc.referenceCode} · Page ${page} of ${count}`);
    if (doc.hostedUrl && page === 1) {
      const text = `View online: ${doc.hostedUrl}`;
      write(pdf, text, frame.left, frame.bottom + 2, {
        width: frame.width,
        align: 'center',
        link: doc.hostedUrl,
        lineBreak: false,
      });
    }
  });
}

/** Draws the whole invoice onto `pdf` (its fonts registered under `fonts`' names). */
export function drawInvoice(pdf: Pdf, doc: InvoiceDocument, fonts: PdfFonts): void {
  let y = drawHeader(pdf, doc, fonts, frameOf(pdf));
  y = drawBillTo(pdf, doc, fonts, frameOf(pdf), y);
  y = drawItems(pdf, doc, fonts, y);
  y = drawTotals(pdf, doc, fonts, y);
  y = drawNotes(pdf, doc, fonts, y);
  y = drawPayments(pdf, doc, fonts, y);
  y = drawCreditNotes(pdf, doc, fonts, y);
  drawPaymentInstructions(pdf, doc, fonts, y);
  drawPageMarks(pdf, doc, fonts);
}
