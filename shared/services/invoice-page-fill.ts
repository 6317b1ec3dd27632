/**
 * Filling one page of listed invoices (invoice history, aging's open invoices): batched reads in the listing's order,
 * each invoice serialised once, until the page is full (the histories' 5,000,000-byte cap, docs/api.md "Limits").
 */
import type { Invoice } from '../domain/invoice.ts';
import { PageBudget } from '../domain/page-size.ts';
import { loadInvoices } from '../store/invoices.ts';
import type { PageFill } from './history-listing.ts';

/** Invoices per batched read (two items each; BatchGetItem takes 100 keys). */
const INVOICES_PER_READ = 50;

/**
 * `show` serialises an invoice; `shown` (optional) leaves out an invoice that no longer belongs on the page (it
 * changed between the listing and this read). `lastTaken` is the index in `referenceCodes` of the last invoice taken.
 */
export async function fillInvoicePage(
  referenceCodes: string[],
  show: (invoice: Invoice) => string,
  shown?: (invoice: Invoice) => boolean,
): Promise<PageFill & { invoicesJson: string[] }> {
  const pageBudget = new PageBudget();
  const invoicesJson: string[] = [];
  let lastTaken: number | undefined;
  for (let start = 0; start < referenceCodes.length; start += INVOICES_PER_READ) {
    const batch = referenceCodes.slice(start, start + INVOICES_PER_READ);
    const invoices = await loadInvoices(batch);
    for (const [offset, code] of batch.entries()) {
      const invoice = invoices.get(code);
      if (!invoice || (shown && !shown(invoice))) continue;
      const json = show(invoice);
      if (!pageBudget.take(Buffer.byteLength(json))) return { invoicesJson, lastTaken, full: true };
      invoicesJson.push(json);
      lastTaken = start + offset;
    }
  }
  return { invoicesJson, lastTaken, full: false };
}
