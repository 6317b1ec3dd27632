/**
 * The document routes through HTTP (docs/sending-invoices.md, docs/e-invoice.md, docs/tax.md "Credit notes"):
 * `GET /invoices/{ref}/pdf` with the key and `GET /i/{token}/pdf` without, for an invoice of 20 items; the e-invoice
 * (`GET /invoices/{ref}/ubl`) of a 20-item invoice with VAT, and the PDF and e-invoice of a credit note crediting all
 * its 20 lines; at c=1 in alternating turns. The render phase measures the PDF engine alone
 * (bench/phases/render.ts); these rows add the invoice's reads, the route and the transport of the answer. The first
 * request of each (the engine's import and the fonts' parse, once per process) is reported, not budgeted. A PDF is
 * not a floor's size of work (its CPU is 10–30 × the reads'), so these rows have a latency budget, not floor ratios.
 */
import { machineTime } from '../budgets.ts';
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive, type Run } from '../drive.ts';
import { describeRun, httpOp, merge } from '../load.ts';
import { log } from '../progress.ts';
import { call, publicPage, type RequestSpec, read } from '../requests.ts';

const ITEMS = 20;

const TWENTY_ITEMS = Array.from({ length: ITEMS }, (_, i) => ({
  item: `Service line ${i + 1}`,
  description: `Work package ${i + 1}: analysis, design and delivery`,
  unit_cost: `${150 + i * 25},000.00`,
  quantity: String(i + 1),
}));

/** An invoice of 20 items of `clientId`: its reference and its hosted page's token. */
async function twentyItemInvoice(ctx: BenchContext, key: string, clientId: number) {
  const spec: RequestSpec = {
    path: '/invoices',
    headers: { authorization: `Bearer ${key}` },
    body: { client_id: clientId, due_date: '12/31/2030', fee_bearer: 'client', items: TWENTY_ITEMS },
  };
  const data = (await call(ctx.small.port, spec, 201)).json.data;
  return { ref: data.reference_code as string, token: new URL(data.hosted_url).pathname.split('/')[2]! };
}

/**
 * A 20-item invoice of the taxed account (exclusive VAT, with the e-mail and tax id an e-invoice needs) and a credit
 * note crediting all its lines: the invoice's reference and the note's number.
 */
async function creditedTaxedInvoice(ctx: BenchContext): Promise<{ ref: string; number: string }> {
  const { key, clientId } = ctx.seeded.taxed;
  const { ref } = await twentyItemInvoice(ctx, key, clientId);
  const spec: RequestSpec = {
    path: `/invoices/${ref}/credit-notes`,
    headers: { authorization: `Bearer ${key}` },
    body: { reason: 'Bench: the whole order returned', items: TWENTY_ITEMS },
  };
  return { ref, number: (await call(ctx.small.port, spec, 201)).json.data.number };
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(`Document routes: PDFs and e-invoices of ${ITEMS}-item invoices and credit notes (c=1, alternating turns)`);
  const { ref, token } = await twentyItemInvoice(ctx, ctx.keys.writer, ctx.seeded.wClientId);
  const credited = await creditedTaxedInvoice(ctx);
  const taxedKey = ctx.seeded.taxed.key;
  const creditNotePath = `/invoices/${credited.ref}/credit-notes/${credited.number}`;
  const routes: Record<string, () => RequestSpec> = {
    'invoice PDF': () => read(ctx.keys.writer, `/invoices/${ref}/pdf`),
    'hosted invoice PDF': () => publicPage(`/i/${token}/pdf`),
    'credit note PDF': () => read(taxedKey, `${creditNotePath}/pdf`),
    'invoice UBL': () => read(taxedKey, `/invoices/${credited.ref}/ubl`),
    'credit note UBL': () => read(taxedKey, `${creditNotePath}/ubl`),
  };
  const first: Record<string, { firstMs: number; bytes: number; contentType: string }> = {};
  const runs: Record<string, Run[]> = {};
  for (const [name, make] of Object.entries(routes)) {
    const answer = await call(ctx.small.port, make(), 200);
    first[name] = { firstMs: Math.round(answer.ms), bytes: answer.bytes, contentType: answer.contentType };
    runs[name] = [];
  }
  for (let turn = 0; turn < Math.ceil(SIZES.scaleSamples / 10); turn++)
    for (const [name, make] of Object.entries(routes))
      runs[name]!.push(await drive(5, 1, httpOp(ctx.small.port, make, 200, {})));
  const figures: Record<string, unknown> = {};
  for (const [name, made] of Object.entries(runs)) {
    const run = describeRun(merge(made));
    figures[name] = { ...first[name]!, ...run };
    log(
      `  ${name}: first ${first[name]!.firstMs} ms, then p50 ${run.p50} ms, p99 ${run.p99} ms; ${first[name]!.bytes} bytes`,
    );
    const limit = name.endsWith('UBL') ? UBL_ROUTE_P50_MS : PDF_ROUTE_P50_MS;
    ctx.budgets.push({
      name: `${name} route (${ITEMS} items) p50 c=1`,
      value: run.p50,
      comparator: '<=',
      limit,
      scale: machineTime(limit),
      unit: 'ms',
    });
  }
  ctx.results.documents = figures;
}

/**
 * The PDF engine's budget for a 20-item invoice (150 ms, bench/phases/render.ts) plus the invoice's reads and the
 * answer's transport, which the hosted page's row measures at about 5–10 ms on the reference machine: 200 ms.
 */
const PDF_ROUTE_P50_MS = 200;
/**
 * An e-invoice of 20 lines is one BatchGetItem (the invoice, or the credit note with its invoice, and the account:
 * ~5–10 ms like the hosted page's reads) and an XML tree of ~1,000 nodes built and serialised by xmlbuilder2 (about
 * 5 ms warm; its first import is reported, not budgeted): 50 ms, a quarter of a PDF's.
 */
const UBL_ROUTE_P50_MS = 50;
