/**
 * The OpenAPI examples of the reports (docs/api.md "Aging", "Client statement"; docs/tax.md "Tax report"), captured like the rest by
 * scripts/capture-examples.ts, whose request tools scripts/capture-resource-examples.ts hands on.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CapturedExamples } from '../shared/openapi/document.ts';
import { documentClient, tableName } from '../shared/store/dynamodb-client.ts';
import { ledgerItem } from '../shared/store/receivables.ts';
import { captureStatementMailExamples } from './capture-statement-mail-examples.ts';
import type { CaptureTools } from './capture-tools.ts';

const invoiceFor = (email: string, first_name: string, company_name: string, due_date: string, unit_cost: string) => ({
  client: { first_name, last_name: 'Okafor', email, phone: '+2348061234567', company_name },
  due_date,
  fee_bearer: 'client',
  items: [{ item: 'Supplies', description: 'Monthly delivery', unit_cost, quantity: '1' }],
});

/** MM/DD/YYYY of `today` (MM/DD/YYYY) moved by `days`. */
function shifted(today: string, days: number): string {
  const [month, day, year] = today.split('/').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

export async function captureReportExamples(tools: CaptureTools): Promise<Pick<CapturedExamples, 'requests'>> {
  const { capture, send, commonErrors, today } = tools;
  const late = (
    await send('add-invoice', {
      body: invoiceFor('emeka@example.com', 'Emeka', 'Okafor Stores', shifted(today, -45), '250,000.00'),
    })
  ).body.data;
  await send('add-invoice', {
    body: invoiceFor('ify@example.com', 'Ifeoma', 'Ify Kitchen', shifted(today, -12), '80,000.00'),
  });
  await send('add-payment', {
    body: { reference_code: late.reference_code, date: today, amount: '100,000.00', channel: 'BankTransfer' },
  });

  const page = await capture('aging-report', 200, 'clients', 'Largest outstanding first (limit 2)', {
    body: { limit: 2 },
  });
  await capture('aging-report', 200, 'invoices_31_60', 'Open invoices 31 to 60 days past due', {
    body: { invoices: true, bucket: '31_60' },
  });
  await capture('aging-report', 404, 'client_not_found', 'Unknown client_id', { body: { client_id: 999999 } });
  await capture('aging-report', 400, 'invalid_cursor', 'A client-rows cursor for the invoice listing', {
    body: { invoices: true, cursor: page.data.next_cursor ?? 'forged.cursor' },
  });
  await commonErrors('aging-report', { limit: 2 }, { bucket: '31_60' }, 'QueryCommand');

  const taxReport = await captureTaxReportExamples(tools);
  const { statement, crowdedClientId } = await captureStatementExamples(tools, late);
  const clients = { clientId: Number(late.client.id), companyId: Number(late.company_id), crowdedClientId };
  const mail = await captureStatementMailExamples(tools, clients);
  return {
    requests: {
      'aging-report': { json: { invoices: true, bucket: '31_60', limit: 50 }, form: 'invoices=true&bucket=31_60' },
      'client-statement': { json: statement, form: 'period=month' },
      'tax-report': { json: taxReport, form: 'period=month' },
      ...mail.requests,
    },
  };
}

/** The tax report of this month (docs/tax.md "Tax report") and its refusals. */
async function captureTaxReportExamples({ capture, commonErrors }: CaptureTools) {
  const body = { period: 'month' };
  await capture('tax-report', 200, 'month', "This month's VAT and withholding tax", { body });
  await capture('tax-report', 400, 'invalid_period', 'custom without end', {
    body: { period: 'custom', start: '01/01/2026' },
  });
  await commonErrors('tax-report', body, [1] as unknown as Record<string, unknown>, 'QueryCommand');
  return body;
}

/** The statements of the late invoice's client, and the refusals a statement has. */
async function captureStatementExamples(tools: CaptureTools, late: Record<string, any>) {
  const { capture, commonErrors } = tools;
  const path = `/clients/${late.client.id}/statement`;
  const statement = { period: 'month' };
  await capture('client-statement', 200, 'month', "This month's statement", { path, body: statement });
  await capture('client-statement', 400, 'invalid_period', 'custom without end', {
    path,
    body: { period: 'custom', start: '01/01/2026' },
  });
  await capture('client-statement', 404, 'client_not_found', 'Unknown client', {
    path: '/clients/999999/statement',
    body: statement,
  });
  const crowdedClientId = await crowdedClient(tools, Number(late.company_id));
  await capture('client-statement', 400, 'statement_too_large', 'More than 5,000 lines in the period', {
    path: `/clients/${crowdedClientId}/statement`,
    body: { period: 'today' },
  });
  await commonErrors('client-statement', statement, [1] as unknown as Record<string, unknown>, 'QueryCommand', {
    path,
  });
  return { statement, crowdedClientId };
}

/** A client with 5,001 ledger lines today, written directly (as many payments through the API would take minutes). */
async function crowdedClient({ send, today }: CaptureTools, companyId: number): Promise<number> {
  const invoice = (
    await send('add-invoice', { body: invoiceFor('busy@example.com', 'Bisi', 'Busy Mart', '12/30/2030', '1.00') })
  ).body.data;
  const [month, day, year] = today.split('/');
  const date = `${year}-${month}-${day}`;
  const items = Array.from({ length: 5001 }, (_, i) =>
    ledgerItem({
      companyId,
      clientId: invoice.client.id,
      date,
      recordedAt: `${date} 00:00:00`,
      type: 'payment',
      referenceCode: invoice.reference_code,
      description: 'Payment (Cash)',
      debitKobo: 0,
      creditKobo: 1,
      sourceId: 1_000_000 + i,
    }),
  );
  for (let i = 0; i < items.length; i += 25)
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  return invoice.client.id;
}
