/**
 * Where a history page's CPU goes, in one process (no HTTP): the DynamoDB client work the floor also does,
 * and what our code adds on top (views, JSON, the middy stack). Supports docs/performance.md, the history miss.
 *
 *   npx tsx bench/history-cpu.ts
 */
export {};

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.LOG_LEVEL = 'INFO';
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.TABLE_NAME = 'history-cpu';
process.env.AWS_REGION ??= 'local';

const { startDynamoDbLocal, ensureTable } = await import('../infra/local/dynamodb-local.ts');
const db = await startDynamoDbLocal();
process.env.DYNAMODB_ENDPOINT = db.endpoint;
await ensureTable(db.endpoint, 'history-cpu');

const { call, createInvoice, newAccount, todayMonthFirst, makeEvent, lambdaContext } = await import(
  '../infra/tools/api-driver.ts'
);
const { handler } = await import('../functions/history/handler.ts');
const { paymentHistory } = await import('../shared/services/payment-history.ts');
const { requestContext } = await import('../shared/services/context.ts');
const { queryPayments } = await import('../shared/store/history.ts');
const { loadInvoices } = await import('../shared/store/invoices.ts');
const { paymentView } = await import('../shared/representation/views.ts');
const { todayIn } = await import('../shared/domain/dates.ts');

const { key, account } = await newAccount();
const items = [
  { item: 'Website design', description: 'Landing page', unit_cost: '150,000.00', quantity: '1' },
  { item: 'Hosting', description: '12 months', unit_cost: '2,500.00', quantity: 12 },
];
for (let i = 0; i < 100; i++) {
  const invoice = await createInvoice(key, { items });
  await call('add-payment', {
    key,
    body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '1', channel: 'Cash' },
  });
}

// Logs go nowhere, as in the bench's runtime (stdout → /dev/null), but are still produced.
const write = process.stdout.write.bind(process.stdout);
(process.stdout as unknown as { write: () => boolean }).write = () => true;

async function measure(label: string, run: () => unknown) {
  for (let i = 0; i < 20; i++) await run();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) await run();
  const cpu = process.cpuUsage(cpu0);
  console.error(
    `${label.padEnd(34)} wall ${((performance.now() - t0) / 100).toFixed(2)} ms, cpu ${((cpu.user + cpu.system) / 100_000).toFixed(2)} ms`,
  );
}

const page = await queryPayments(account.companyId, '2000-01-01', '2100-01-01', 100);
const invoices = await loadInvoices(page.payments.map((p) => p.referenceCode));
const views = page.payments.map((p) =>
  paymentView(p, invoices.get(p.referenceCode)!, { today: todayIn(account.timeZone) }),
);
let bytes = 0;
await measure('handler (middy stack, service, JSON)', async () => {
  bytes = String(
    (
      (await handler(makeEvent('payment-history', { key, body: { period: 'today' } }), lambdaContext())) as {
        body: string;
      }
    ).body,
  ).length;
});
await measure('service + JSON', async () =>
  JSON.stringify(
    await paymentHistory(requestContext(account, 'history-cpu'), { period: 'today', limit: 100 } as never, undefined),
  ),
);
await measure('DynamoDB client only (as the floor)', async () => {
  const p = await queryPayments(account.companyId, '2000-01-01', '2100-01-01', 100);
  await loadInvoices(p.payments.map((x) => x.referenceCode));
});
await measure('views only', () =>
  page.payments.map((p) => paymentView(p, invoices.get(p.referenceCode)!, { today: todayIn(account.timeZone) })),
);
await measure('JSON only', () => JSON.stringify({ status: 'success', data: { payments: views } }));
console.error(`response body: ${bytes} bytes`);

process.stdout.write = write;
await db.stop();
process.exit(0);
