/**
 * The single DynamoDB table, declared once. The CDK stack (infra/stack.ts), the local runtime,
 * the CLI and the tests all build the table from this definition.
 */
export const TABLE = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /**
   * The listing index (GSI1; its physical name and keys are kept): an account's items of one kind, newest first, one
   * partition per kind and account (keys.ts) — payments by date (payment history), invoice headers by creation
   * (invoice history), live clients (`GET /clients`), webhook events (`webhook:deliveries`) and mail jobs
   * (`mail:deliveries`).
   */
  listingIndex: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  /**
   * The wake index (GSI2; its physical name and keys are kept): sparse — only items something may still be due for,
   * by the next date it may be (today open invoice headers: their `invoice.overdue` and reminders). The wake sweep
   * reads it (docs/data-design.md "Wake index"). Keys only, plus what the sweep reads off a hit.
   */
  wakeIndex: { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', nonKeyAttributes: ['company_id'] },
  /** Epoch seconds; DynamoDB TTL deletes expired idempotency records. */
  ttlAttribute: 'expires_at',
  /** The table's stream carries each new item image; it feeds the outbox's dispatcher (docs/webhooks.md "Delivery architecture"). */
  streamViewType: 'NEW_IMAGE',
} as const;

/** Input for CreateTable (local runtime and tests); on AWS the CDK stack creates the same shape. */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, listingIndex, wakeIndex, streamViewType } = TABLE;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
    AttributeDefinitions: [
      partitionKey,
      sortKey,
      listingIndex.partitionKey,
      listingIndex.sortKey,
      wakeIndex.partitionKey,
      wakeIndex.sortKey,
    ].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: listingIndex.name,
        KeySchema: [
          { AttributeName: listingIndex.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: listingIndex.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'ALL' as const },
      },
      wakeIndexInput(),
    ],
  };
}

/** The wake index as CreateTable and UpdateTable take it (an existing local table gains it at start: infra/local/dynamodb-local.ts). */
export function wakeIndexInput() {
  const { wakeIndex } = TABLE;
  return {
    IndexName: wakeIndex.name,
    KeySchema: [
      { AttributeName: wakeIndex.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: wakeIndex.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...wakeIndex.nonKeyAttributes] },
  };
}
