/**
 * A credit note drawn on A4 (docs/tax.md "Credit notes"), with the shared drawing helpers (./pdf-drawing.ts) as the
 * statement is drawn: who it is from, CREDIT NOTE with its number, date and the invoice it corrects, "Bill to", the
 * reason, its lines (or, by amount, one row), the tax split rows, the total and where the credit went. Part of the PDF
 * engine (./pdf-engine.ts re-exports it), so it loads with the first PDF only.
 */
import type { CreditNoteDocument } from './credit-note-document.ts';
import type { DocumentLine } from './invoice-document.ts';
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

export function drawCreditNotePdf(document: CreditNoteDocument): Promise<Uint8Array> {
  const info = {
    Title: `Credit note ${document.number} from ${document.merchant.name}`,
    Author: document.merchant.name,
    Subject: `Credit note ${document.number} on invoice ${document.invoice.number}`,
  };
  return renderA4(info, (pdf, fonts) => drawCreditNote(pdf, document, fonts));
}

/** The table's columns: x offsets from the left margin and widths (numbers right-aligned). */
const COLUMNS = {
  item: { x: 0, width: 255 },
  quantity: { x: 259, width: 60 },
  unitCost: { x: 323, width: 85 },
  amount: { x: 412, width: 87 },
};
const NUMBER_SIZE = 9.5;

const HEADINGS: readonly ColumnHeading[] = [
  { text: 'Item', column: COLUMNS.item, align: 'left' },
  { text: 'Qty', column: COLUMNS.quantity, align: 'right' },
  { text: 'Unit cost', column: COLUMNS.unitCost, align: 'right' },
  { text: 'Amount', column: COLUMNS.amount, align: 'right' },
];

function drawHeader(pdf: Pdf, doc: CreditNoteDocument, fonts: PdfFonts, frame: Frame): number {
  const facts = [
    doc.number,
    `Date ${doc.issued.text}`,
    `Corrects invoice ${doc.invoice.number}`,
    `of ${doc.invoice.issued.text}`,
    `Ref. ${doc.invoice.referenceCode}`,
  ];
  return drawHeading(pdf, fonts, frame, doc.merchant, { title: 'CREDIT NOTE', facts });
}

/** The line's detail under its name: its description, discount and VAT category, those it has. */
const detailOf = (line: DocumentLine) =>
  [line.description, line.discount ? `Discount ${line.discount}` : undefined, line.taxLabel]
    .filter((part): part is string => Boolean(part?.trim()))
    .join(' · ');

function rowHeight(pdf: Pdf, line: DocumentLine, fonts: PdfFonts): number {
  const width = COLUMNS.item.width - 6;
  let height = pdf.font(fonts.bold).fontSize(9.5).heightOfString(line.name, { width });
  const detail = detailOf(line);
  if (detail) height += 1 + pdf.font(fonts.regular).fontSize(8.5).heightOfString(detail, { width });
  return height + 10;
}

function drawRow(pdf: Pdf, line: DocumentLine, fonts: PdfFonts, frame: Frame, top: number, height: number): void {
  const x = frame.left + 6;
  pdf.font(fonts.bold).fontSize(9.5).fillColor(INK);
  const below = write(pdf, line.name, x, top, { width: COLUMNS.item.width - 6 });
  const detail = detailOf(line);
  if (detail) {
    pdf.font(fonts.regular).fontSize(8.5).fillColor(MUTED);
    write(pdf, detail, x, below + 1, { width: COLUMNS.item.width - 6 });
  }
  pdf.font(fonts.regular).fillColor(INK);
  const cells: [string, Column][] = [
    [line.quantity, COLUMNS.quantity],
    [line.unitCost, COLUMNS.unitCost],
    [line.lineTotal, COLUMNS.amount],
  ];
  writeNumbers(pdf, frame, top, cells, NUMBER_SIZE);
  drawRowRule(pdf, frame, top, height);
}

/** The lines credited, or for a credit note by amount one row crediting the invoice. */
function drawLines(pdf: Pdf, doc: CreditNoteDocument, fonts: PdfFonts, top: number): number {
  const lines: DocumentLine[] =
    doc.lines.length > 0
      ? doc.lines
      : [{ name: `Credit on invoice ${doc.invoice.number}`, quantity: '1', unitCost: doc.total, lineTotal: doc.total }];
  const y = drawTableRows(pdf, fonts, drawTableHeader(pdf, fonts, frameOf(pdf), top, HEADINGS), {
    headings: HEADINGS,
    rows: lines,
    height: (line) => rowHeight(pdf, line, fonts),
    draw: (line, frame, at, height) => drawRow(pdf, line, fonts, frame, at, height),
  });
  return y + 4;
}

/** A labelled amount right-aligned under the table; bold for the total. */
function drawTotalRow(pdf: Pdf, fonts: PdfFonts, top: number, row: { label: string; amount: string; bold?: boolean }) {
  const frame = frameOf(pdf);
  const y = room(pdf, top, 20);
  const size = row.bold ? 11 : 9.5;
  pdf
    .font(row.bold ? fonts.bold : fonts.regular)
    .fontSize(size)
    .fillColor(INK);
  write(pdf, row.label, frame.left + 200, y, { width: 200, lineBreak: false });
  writeNumber(pdf, row.amount, frame.right - 6, y, COLUMNS.amount.width + 40, size);
  return y + (row.bold ? 22 : 17);
}

function drawTotals(pdf: Pdf, doc: CreditNoteDocument, fonts: PdfFonts, top: number): number {
  let y = top;
  for (const row of doc.split) y = drawTotalRow(pdf, fonts, y, row);
  y = drawTotalRow(pdf, fonts, y, { label: 'Total credited', amount: doc.total, bold: true });
  y = drawTotalRow(pdf, fonts, y, { label: 'Applied to the invoice', amount: doc.appliedToInvoice });
  return drawTotalRow(pdf, fonts, y, { label: "Added to the client's credit", amount: doc.creditedToClient });
}

/** The footer of every page. */
function drawPageMarks(pdf: Pdf, doc: CreditNoteDocument, fonts: PdfFonts): void {
  markEachPage(pdf, (frame, page, count) =>
    writeFooter(
      pdf,
      fonts,
      frame,
      `Credit note ${doc.number} · invoice ${doc.invoice.number} · Page ${page} of ${count}`,
    ),
  );
}

/** Draws the whole credit note onto `pdf` (its fonts registered under `fonts`' names). */
export function drawCreditNote(pdf: Pdf, doc: CreditNoteDocument, fonts: PdfFonts): void {
  const frame = frameOf(pdf);
  let y = drawHeader(pdf, doc, fonts, frame);
  const company = doc.client.company ? [doc.client.company] : [];
  const billTo = [doc.client.name, ...company, ...doc.client.address];
  y = drawLabelled(pdf, fonts, frame, y, { label: 'BILL TO', lines: billTo, gap: 16 });
  y = drawLabelled(pdf, fonts, frame, y, { label: 'REASON', lines: [doc.reason], gap: 16 });
  y = drawLines(pdf, doc, fonts, y);
  drawTotals(pdf, doc, fonts, y);
  drawPageMarks(pdf, doc, fonts);
}
