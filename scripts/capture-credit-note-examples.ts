/**
 * The OpenAPI examples of the credit-note route (docs/tax.md "Credit notes"), captured like the rest by
 * scripts/capture-examples.ts, whose request tools it is handed.
 */
import type { CapturedExamples } from '../shared/openapi/document.ts';
import type { CaptureTools } from './capture-tools.ts';

const invoiceBody = {
  client: { first_name: 'Kemi', last_name: 'Adeyemi', email: 'kemi@example.com', phone: '+2348091234567' },
  due_date: '12/30/2030',
  fee_bearer: 'client',
  items: [
    { item: 'Office chair', description: 'Ergonomic, black', unit_cost: '45,000.00', quantity: '4' },
    { item: 'Desk', description: 'Oak, 160 cm', unit_cost: '120,000.00', quantity: '1' },
  ],
};

const BY_AMOUNT = { reason: 'Two chairs arrived damaged', amount: '90,000.00' };
const BY_ITEMS = {
  reason: 'Desk returned',
  items: [{ item: 'Desk', description: 'Oak, 160 cm', unit_cost: '120,000.00', quantity: '1' }],
};

export async function captureCreditNoteExamples(tools: CaptureTools): Promise<Pick<CapturedExamples, 'requests'>> {
  const { capture, send } = tools;
  const invoice = (await send('add-invoice', { body: invoiceBody })).body.data;
  const path = { path: `/invoices/${invoice.reference_code}/credit-notes` };
  const note = await capture('create-credit-note', 201, 'by_amount', 'By an amount, VAT included', {
    ...path,
    body: BY_AMOUNT,
  });
  await captureDocumentErrors(tools, invoice.reference_code, note.data.number);
  await capture('create-credit-note', 201, 'by_items', 'By the lines credited', { ...path, body: BY_ITEMS });
  await capture('create-credit-note', 409, 'credit_exceeds_invoice', 'More than is left to credit', {
    ...path,
    body: { reason: 'Everything', amount: '300,000.00' },
  });
  await capture('create-credit-note', 404, 'invoice_not_found', 'Unknown reference_code', {
    path: '/invoices/AAAAAAAAAAAAAAAAAAAA/credit-notes',
    body: BY_AMOUNT,
  });
  const voided = (await send('add-invoice', { body: invoiceBody })).body.data.reference_code as string;
  await send('delete-invoice', { path: `/invoices/${voided}`, method: 'DELETE' });
  await capture('create-credit-note', 409, 'invoice_deleted', 'The invoice was voided', {
    path: `/invoices/${voided}/credit-notes`,
    body: BY_AMOUNT,
  });
  const open = (await send('add-invoice', { body: invoiceBody })).body.data.reference_code as string;
  const openPath = { path: `/invoices/${open}/credit-notes` };
  const small = { reason: 'Rounding', amount: '1.00' };
  await tools.commonErrors(
    'create-credit-note',
    small,
    { reason: 'Both', amount: '1.00', items: BY_ITEMS.items },
    'TransactWriteItemsCommand',
    openPath,
  );
  await idempotencyRefusals(tools, openPath);
  return {
    requests: { 'create-credit-note': { json: BY_AMOUNT, form: new URLSearchParams(BY_AMOUNT).toString() } },
  };
}

async function idempotencyRefusals(tools: CaptureTools, path: { path: string }) {
  const { capture, send, withFault, inFlight } = tools;
  const keyed = { ...path, body: { reason: 'Keyed', amount: '2.00' }, headers: { 'idempotency-key': 'cn-example' } };
  await capture('create-credit-note', 400, 'invalid_idempotency_key', 'Idempotency-Key over 255 characters', {
    ...keyed,
    headers: { 'idempotency-key': 'k'.repeat(256) },
  });
  await withFault('TransactWriteItemsCommand', inFlight, () =>
    capture('create-credit-note', 409, 'idempotency_request_in_progress', 'Same Idempotency-Key still running', keyed),
  );
  await send('create-credit-note', keyed);
  await capture('create-credit-note', 422, 'idempotency_key_reused', 'Same Idempotency-Key, another body', {
    ...keyed,
    body: { reason: 'Keyed', amount: '3.00' },
  });
}

/**
 * A credit note's PDF and e-invoice answer a PDF and XML (not captured); their errors are the JSON envelope (the demo
 * account has no e-mail or tax id: the e-invoice's 422).
 */
async function captureDocumentErrors(tools: CaptureTools, ref: string, number: string) {
  const { capture, faultErrors } = tools;
  for (const [route, kind] of [
    ['credit-note-ubl', 'ubl'],
    ['credit-note-pdf', 'pdf'],
  ] as const) {
    const at = (code: string, numbered = number) => ({ path: `/invoices/${code}/credit-notes/${numbered}/${kind}` });
    await capture(route, 404, 'invoice_not_found', 'Unknown reference_code', at('AAAAAAAAAAAAAAAAAAAA'));
    await capture(route, 404, 'credit_note_not_found', 'No credit note of this number', at(ref, 'CN-999999'));
    await faultErrors(route, at(ref), 'BatchGetItemCommand');
  }
  const ubl = { path: `/invoices/${ref}/credit-notes/${number}/ubl` };
  await capture('credit-note-ubl', 422, 'einvoice_incomplete', 'No e-mail or tax id on the account', ubl);
}
