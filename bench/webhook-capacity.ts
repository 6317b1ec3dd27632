/**
 * What webhook events cost a write (docs/webhooks.md "Cost"): the size of every outbox event item that
 * add-invoice / add-payment put in their transaction, and the write units that size costs on DynamoDB
 * (a transactional write: 2 WCU per started KB; the GSI1 copy: 1 WCU per started KB). DynamoDB Local's
 * own ConsumedCapacity for transactions is not faithful (docs/performance.md), so it is printed for
 * reference only. Run: `npx tsx bench/webhook-capacity.ts`. Not part of `npm run bench`.
 */
export {};

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { useLocalDynamoDb } = await import('../infra/local/settings.ts');
const { usDate } = await import('../infra/local/banner.ts');
const { createAccount } = await import('../shared/store/accounts.ts');
const { dynamoHooks } = await import('../infra/tools/dynamo-hooks.ts');
const { addInvoice } = await import('../shared/services/add-invoice.ts');
const { addPayment } = await import('../shared/services/add-payment.ts');
const { requestContext } = await import('../shared/services/context.ts');
const { addInvoiceSchema } = await import('../shared/schemas/invoice.ts');
const { addPaymentSchema } = await import('../shared/schemas/payment.ts');
const { marshall } = await import('@aws-sdk/util-dynamodb');

/** DynamoDB item size: attribute names plus values (S: UTF-8 bytes, B: bytes, N: ~1 byte per 2 digits + 1). */
function itemBytes(item: Record<string, unknown>): number {
  const value = (v: Record<string, unknown>): number => {
    if ('S' in v) return Buffer.byteLength(String(v.S));
    if ('B' in v) return (v.B as Uint8Array).length;
    if ('N' in v) return Math.ceil(String(v.N).replace(/^-|\./g, '').length / 2) + 1;
    if ('BOOL' in v || 'NULL' in v) return 1;
    if ('M' in v)
      return (
        3 +
        Object.entries(v.M as Record<string, Record<string, unknown>>).reduce(
          (s, [k, x]) => s + Buffer.byteLength(k) + value(x) + 1,
          0,
        )
      );
    if ('L' in v) return 3 + (v.L as Record<string, unknown>[]).reduce((s, x) => s + value(x) + 1, 0);
    return 0;
  };
  return Object.entries(marshall(item, { removeUndefinedValues: true })).reduce(
    (s, [k, v]) => s + Buffer.byteLength(k) + value(v as never),
    0,
  );
}
const kb = (bytes: number) => Math.ceil(bytes / 1024);

type Capacity = {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
};

const database = await startDynamoDbLocal();
try {
  await ensureTable(database.endpoint, 'webhook-capacity');
  useLocalDynamoDb(database.endpoint, 'webhook-capacity');
  const { account } = await createAccount({ name: 'Capacity Co' });
  let withoutEvents = false;
  let last: Record<string, unknown> | undefined;
  let eventSizes: number[] = [];
  dynamoHooks.add({
    before(call) {
      if (call.command !== 'TransactWriteItemsCommand') return;
      const input = call.input as {
        TransactItems: { Put?: { Item: { entity?: string } } }[];
        ReturnConsumedCapacity?: string;
      };
      input.ReturnConsumedCapacity = 'INDEXES';
      eventSizes = input.TransactItems.filter((a) => a.Put?.Item.entity === 'webhook_event').map((a) =>
        itemBytes(a.Put!.Item),
      );
      if (withoutEvents)
        input.TransactItems = input.TransactItems.filter((a) => a.Put?.Item.entity !== 'webhook_event');
    },
    after(call, output) {
      if (call.command !== 'TransactWriteItemsCommand') return;
      const consumed = ((output.ConsumedCapacity ?? []) as Capacity[])[0] ?? {};
      const index = Object.values(consumed.GlobalSecondaryIndexes ?? {}).reduce(
        (s, c) => s + (c.CapacityUnits ?? 0),
        0,
      );
      last = {
        transact_items: (call.input.TransactItems as unknown[]).length,
        local_reported_wcu: consumed.CapacityUnits ?? 0,
        local_reported_gsi_wcu: index,
        ...(withoutEvents
          ? {}
          : {
              event_item_bytes: eventSizes,
              extra_wcu_transaction: eventSizes.reduce((s, b) => s + 2 * kb(b), 0),
              extra_wcu_gsi1_copy: eventSizes.reduce((s, b) => s + kb(b), 0),
              wcu_per_delivery_state_update: eventSizes.map((b) => 2 * kb(b)),
            }),
      };
    },
  });
  const context = requestContext(account, 'capacity');
  const invoiceInput = () =>
    addInvoiceSchema.parse({
      client: { first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com', phone: '+2348012345678' },
      due_date: '12/30/2030',
      fee_bearer: 'client',
      items: [
        { item: 'Website Design', description: '5 pages', unit_cost: '50000.00', quantity: '1' },
        { item: 'Hosting', description: '12 months', unit_cost: '25000.00', quantity: '1' },
      ],
    });
  const rows: string[] = [];
  for (const mode of [false, true]) {
    withoutEvents = mode;
    const label = mode ? 'without events' : 'with events';
    const created = (await addInvoice(context, invoiceInput() as never)).response;
    if (!('data' in created)) throw new Error(`add-invoice refused: ${created.code}`);
    const invoice = created.data as { reference_code: string };
    rows.push(`add-invoice                 ${label.padEnd(15)} ${JSON.stringify(last)}`);
    const pay = (amount: string) =>
      addPaymentSchema.parse({
        reference_code: invoice.reference_code,
        amount,
        channel: 'Cash',
        date: usDate(new Date(), 'Africa/Lagos'),
      });
    await addPayment(context, pay('100.00') as never);
    rows.push(`add-payment (partial)       ${label.padEnd(15)} ${JSON.stringify(last)}`);
    await addPayment(context, pay('74900.00') as never);
    rows.push(`add-payment (pays in full)  ${label.padEnd(15)} ${JSON.stringify(last)}`);
  }
  console.log(rows.join('\n'));
} finally {
  await database.stop();
}
process.exit(0);
