/**
 * A client's statement drawn on A4 (docs/receivables.md "One client: the statement"): who it is from and for, the period, the opening
 * balance, each line (date; type, reference and description; debit, credit and the balance after it) and the closing
 * balance. Lines flow over as many pages as they need, the table's header repeated; every page's footer names the
 * statement. Part of the PDF engine (./pdf-engine.ts re-exports it), so it loads with the first PDF only.
 */

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
import type { StatementDocument, StatementDocumentLine } from './statement-document.ts';

/** Renders the statement as an A4 PDF. */
export function drawStatementPdf(document: StatementDocument): Promise<Uint8Array> {
  const info = {
    Title: `Statement for ${document.client.name} from ${document.merchant.name}`,
    Author: document.merchant.name,
    Subject: `Statement ${document.from.text} to ${document.to.text}`,
  };
  return renderA4(info, (pdf, fonts) => drawStatement(pdf, document, fonts));
}

/** The table's columns: x offsets from the left margin and widths (numbers right-aligned). */
const COLUMNS = {
  date: { x: 0, width: 68 },
  detail: { x: 72, width: 192 },
  debit: { x: 268, width: 75 },
  credit: { x: 347, width: 75 },
  balance: { x: 426, width: 73 },
};
const NUMBER_SIZE = 9.5;

const HEADINGS: readonly ColumnHeading[] = [
  { text: 'Date', column: COLUMNS.date, align: 'left' },
  { text: 'Details', column: COLUMNS.detail, align: 'left' },
  { text: 'Debit', column: COLUMNS.debit, align: 'right' },
  { text: 'Credit', column: COLUMNS.credit, align: 'right' },
  { text: 'Balance', column: COLUMNS.balance, align: 'right' },
];

function drawHeader(pdf: Pdf, doc: StatementDocument, fonts: PdfFonts, frame: Frame): number {
  const facts = [`From ${doc.from.text}`, `To ${doc.to.text}`, `Drawn up ${doc.drawnUp.text}`];
  return drawHeading(pdf, fonts, frame, doc.merchant, { title: 'STATEMENT', facts });
}

function drawClient(pdf: Pdf, doc: StatementDocument, fonts: PdfFonts, frame: Frame, top: number): number {
  const lines = [doc.client.name, ...(doc.client.company ? [doc.client.company] : [])];
  return drawLabelled(pdf, fonts, frame, top, { label: 'STATEMENT FOR', lines, gap: 18 });
}

/** The line's title (its type and the invoice's number, or its reference code before numbers) and the text below. */
const titleOf = (line: StatementDocumentLine) => `${line.type} ${line.number ?? line.referenceCode}`;
const detailOf = (line: StatementDocumentLine) =>
  line.number === undefined
    ? line.description
    : `Ref. ${line.referenceCode}${line.description ? ` · ${line.description}` : ''}`;

function rowHeight(pdf: Pdf, line: StatementDocumentLine, fonts: PdfFonts): number {
  const width = COLUMNS.detail.width - 6;
  let height = pdf.font(fonts.bold).fontSize(9.5).heightOfString(titleOf(line), { width });
  const detail = detailOf(line);
  if (detail) height += 1 + pdf.font(fonts.regular).fontSize(8.5).heightOfString(detail, { width });
  return height + 10;
}

function drawRow(pdf: Pdf, line: StatementDocumentLine, fonts: PdfFonts, frame: Frame, top: number, height: number) {
  pdf.font(fonts.regular).fontSize(9.5).fillColor(INK);
  write(pdf, line.date.text, frame.left + 6, top, { width: COLUMNS.date.width - 6, lineBreak: false });
  const x = frame.left + COLUMNS.detail.x + 6;
  pdf.font(fonts.bold).fontSize(9.5);
  const below = write(pdf, titleOf(line), x, top, { width: COLUMNS.detail.width - 6 });
  const detail = detailOf(line);
  if (detail) {
    pdf.font(fonts.regular).fontSize(8.5).fillColor(MUTED);
    write(pdf, detail, x, below + 1, { width: COLUMNS.detail.width - 6 });
  }
  pdf.font(fonts.regular).fillColor(INK);
  const cells: [string, Column][] = [
    [line.debit, COLUMNS.debit],
    [line.credit, COLUMNS.credit],
    [line.balance, COLUMNS.balance],
  ];
  writeNumbers(pdf, frame, top, cells, NUMBER_SIZE);
  drawRowRule(pdf, frame, top, height);
}

/** The opening or closing balance: a labelled row with the amount in the balance column. */
function drawBalanceRow(pdf: Pdf, label: string, amount: string, fonts: PdfFonts, top: number): number {
  const frame = frameOf(pdf);
  const y = room(pdf, top, 24);
  pdf.font(fonts.bold).fontSize(10).fillColor(INK);
  write(pdf, label, frame.left + 6, y, { width: 200, lineBreak: false });
  writeNumber(pdf, amount, frame.right - 6, y, COLUMNS.balance.width + 40, 10);
  return y + 22;
}

function drawLines(pdf: Pdf, doc: StatementDocument, fonts: PdfFonts, top: number): number {
  let y = drawTableHeader(pdf, fonts, frameOf(pdf), top, HEADINGS);
  y = drawBalanceRow(pdf, `Opening balance on ${doc.from.text}`, doc.opening, fonts, y);
  y = drawTableRows(pdf, fonts, y, {
    headings: HEADINGS,
    rows: doc.lines,
    height: (line) => rowHeight(pdf, line, fonts),
    draw: (line, frame, at, height) => drawRow(pdf, line, fonts, frame, at, height),
  });
  if (doc.lines.length === 0) {
    const frame = frameOf(pdf);
    pdf.font(fonts.regular).fontSize(9.5).fillColor(MUTED);
    y = write(pdf, 'No invoices or payments in this period.', frame.left + 6, y, { width: frame.width }) + 10;
  }
  return drawBalanceRow(pdf, `Closing balance on ${doc.to.text}`, doc.closing, fonts, y + 4);
}

/** The footer of every page. */
function drawPageMarks(pdf: Pdf, doc: StatementDocument, fonts: PdfFonts): void {
  const about = `Statement for ${doc.client.name} · ${doc.from.text} to ${doc.to.text}`;
  markEachPage(pdf, (frame, page, count) => writeFooter(pdf, fonts, frame, `${about} · Page ${page} of ${count}`));
}

/** Draws the whole statement onto `pdf` (its fonts registered under `fonts`' names). */
export function drawStatement(pdf: Pdf, doc: StatementDocument, fonts: PdfFonts): void {
  let y = drawHeader(pdf, doc, fonts, frameOf(pdf));
  y = drawClient(pdf, doc, fonts, frameOf(pdf), y);
  drawLines(pdf, doc, fonts, y);
  drawPageMarks(pdf, doc, fonts);
}
