/**
 * Rendering what a client sees (docs/sending-invoices.md), in this process after DynamoDB Local stopped: the hosted
 * page's HTML and the PDF of a 20-item invoice with a full profile. The PDF engine's first render (its import and the
 * fonts' parse: once per process) is reported, not budgeted; the budgets are the warm renders' p50 and the PDF's size.
 */

import { toEpochSeconds } from '../../shared/domain/dates.ts';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { renderInvoicePdf, renderStatementPdf } from '../../shared/render/engines.ts';
import { invoiceDocument } from '../../shared/render/invoice-document.ts';
import { renderInvoicePage } from '../../shared/render/invoice-page.ts';
import { statementDocument } from '../../shared/render/statement-document.ts';
import { machineTime } from '../budgets.ts';
import type { BenchContext } from '../context.ts';
import { log } from '../progress.ts';
import { percentile, round } from '../stats.ts';

const ITEMS = 20;
const PAGE_RENDERS = 500;
const PDF_RENDERS = 40;
const STATEMENT_PDF_BUDGET_MS = 600;

function twentyItemInvoice(): Invoice {
  const lines = Array.from({ length: ITEMS }, (_, i) => ({
    id: String(1042001 + i),
    name: `Service line ${i + 1}`,
    description: `Work package ${i + 1}: analysis, design and delivery`,
    quantity: i + 1,
    unitCostKobo: 150_000 + i * 25_000,
  }));
  const totalKobo = lines.reduce((sum, line) => sum + line.quantity * line.unitCostKobo, 0);
  const client = { id: 9, companyId: 7, name: 'Okafor Logistics', firstName: 'Chiamaka', lastName: 'Okafor' };
  return {
    details: {
      id: 1042,
      companyId: 7,
      clientId: 9,
      referenceCode: 'AB12CD34EF56GH78IJ90',
      feeBearer: 'client',
      dueDate: toEpochSeconds({ year: 2030, month: 12, day: 30 }),
      currency: 'NGN',
      createdAt: '2030-11-30 10:00:00',
      hostedToken: 'T'.repeat(24),
      lines,
      client: {
        ...client,
        email: '',
        phone: '',
        website: '',
        address: '',
        type: 'Customer',
        settlementBank: '',
        accountName: '',
        accountNumber: '',
        createdAt: '',
        updatedAt: '',
        deletedAt: null,
      },
    },
    balance: {
      totalKobo,
      amountPaidKobo: 0,
      amountDueKobo: totalKobo,
      paymentStatus: 'unpaid',
      paidAt: null,
      paymentsCount: 0,
      deletedAt: null,
      version: 1,
      updatedAt: '',
    },
  };
}

async function timed<T>(runs: number, work: () => T | Promise<T>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** What the page and the PDF render: the 20-item invoice of a merchant with a full profile. */
const twentyItemDocumentInput = () => ({
  invoice: twentyItemInvoice(),
  merchant: {
    name: 'Adebayo & Sons Trading Ltd',
    timeZone: 'Africa/Lagos',
    profile: {
      email: 'billing@adebayo-sons.ng',
      phone: '+234 803 555 0142',
      address: '14 Awolowo Road\nLagos',
      taxId: '20948811-0001',
      bankName: 'Zenith Bank',
      accountName: 'Adebayo & Sons',
      accountNumber: '1014523687',
    },
  },
  today: { year: 2030, month: 12, day: 1 },
  hostedUrl: 'https://pay.example.com/i/TTTTTTTTTTTTTTTTTTTTTTTT',
});

const twentyItemDocument = () => invoiceDocument(twentyItemDocumentInput());

const STATEMENT_LINES = 200;

/** A client's statement of STATEMENT_LINES lines (invoices and their payments) from the same merchant. */
export function statementOfLines(count: number) {
  const invoice = twentyItemInvoice();
  const lines = Array.from({ length: count }, (_, i) => {
    const paid = i % 2 === 1;
    const amountKobo = 1_250_000 + i * 1_000;
    return {
      date: `2030-${String(1 + (Math.floor(i / 20) % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      type: paid ? ('payment' as const) : ('invoice' as const),
      referenceCode: `AB12CD34EF56GH78${String(i).padStart(4, '0')}`,
      description: paid ? 'Payment (BankTransfer)' : `Service line ${i + 1}`,
      debitKobo: paid ? 0 : amountKobo,
      creditKobo: paid ? amountKobo - 1_000 : 0,
      balanceKobo: (i + 1) * 500,
    };
  });
  const { merchant } = twentyItemDocumentInput();
  return statementDocument({
    merchant,
    client: invoice.details.client,
    range: { from: '2030-01-01', to: '2030-12-31' },
    today: { year: 2030, month: 12, day: 31 },
    currency: 'NGN',
    statement: { openingKobo: 0, lines, closingKobo: count * 500 },
  });
}

interface RenderFigures {
  pageP50Ms: number;
  pdfFirstMs: number;
  pdfP50Ms: number;
  pdfP90Ms: number;
  pdfKb: number;
  statementPdfP50Ms: number;
  statementPdfKb: number;
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(`Rendering: the hosted page (${PAGE_RENDERS}×) and the PDF (${PDF_RENDERS}×) of a ${ITEMS}-item invoice`);
  const document = twentyItemDocument();
  const firstPdfMs = (await timed(1, () => renderInvoicePdf(document)))[0]!;
  const pdfBytes = (await renderInvoicePdf(document)).length;
  const page = await timed(PAGE_RENDERS, () => renderInvoicePage(document));
  const pdf = await timed(PDF_RENDERS, () => renderInvoicePdf(document));
  const statement = statementOfLines(STATEMENT_LINES);
  const statementPdf = await timed(PDF_RENDERS / 4, () => renderStatementPdf(statement));
  const statementBytes = (await renderStatementPdf(statement)).length;
  const figures: RenderFigures = {
    pageP50Ms: round(percentile(page, 50), 3),
    pdfFirstMs: round(firstPdfMs),
    pdfP50Ms: round(percentile(pdf, 50), 1),
    pdfP90Ms: round(percentile(pdf, 90), 1),
    pdfKb: round(pdfBytes / 1024, 1),
    statementPdfP50Ms: round(percentile(statementPdf, 50), 1),
    statementPdfKb: round(statementBytes / 1024, 1),
  };
  ctx.results.render = figures;
  log(
    `  page p50 ${figures.pageP50Ms} ms; PDF first ${figures.pdfFirstMs} ms (engine import + fonts), p50 ${figures.pdfP50Ms} ms, p90 ${figures.pdfP90Ms} ms, ${figures.pdfKb} KB; statement of ${STATEMENT_LINES} lines p50 ${figures.statementPdfP50Ms} ms, ${figures.statementPdfKb} KB`,
  );
  ctx.budgets.push(...renderBudgets(figures));
}

/** The phase's budgets: warm renders' p50 (scaled to the machine) and the PDFs' sizes. */
function renderBudgets(figures: RenderFigures): BenchContext['budgets'] {
  return [
    {
      name: `render hosted page (${ITEMS} items) p50`,
      value: figures.pageP50Ms,
      comparator: '<=',
      limit: 5,
      scale: machineTime(5),
      unit: 'ms',
    },
    {
      name: `render PDF (${ITEMS} items) p50`,
      value: figures.pdfP50Ms,
      comparator: '<=',
      limit: 150,
      scale: machineTime(150),
      unit: 'ms',
    },
    { name: `PDF size (${ITEMS} items)`, value: figures.pdfKb, comparator: '<=', limit: 100, unit: 'KB' },
    {
      name: `render statement PDF (${STATEMENT_LINES} lines) p50`,
      value: figures.statementPdfP50Ms,
      comparator: '<=',
      limit: STATEMENT_PDF_BUDGET_MS,
      scale: machineTime(STATEMENT_PDF_BUDGET_MS),
      unit: 'ms',
    },
    {
      name: `statement PDF size (${STATEMENT_LINES} lines)`,
      value: figures.statementPdfKb,
      comparator: '<=',
      limit: 200,
      unit: 'KB',
    },
  ];
}
