/**
 * The single DynamoDB table, declared once. The CDK stack (infra/stack.ts), the local runtime,
 * the CLI and the tests all build the table from this definition.
 */
export const TABLE = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Payments by company and transaction date (payment history). */
  paymentsIndex: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  /**
   * Sparse: only open invoice headers not yet notified as overdue, by due date (the overdue sweep, docs/data-design.md
   * "Overdue"). Keys only, plus what the sweep reads off a hit.
   */
  overdueIndex: { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', nonKeyAttributes: ['company_id'] },
  /** Epoch seconds; DynamoDB TTL deletes expired idempotency records. */
  ttlAttribute: 'expires_at',
  /** The table's stream carries each new item image; it feeds webhook dispatch (docs/webhooks.md "Delivery architecture"). */
  streamViewType: 'NEW_IMAGE',
} as const;

/** Input for CreateTable (local runtime and tests); on AWS the CDK stack creates the same shape. */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, paymentsIndex, overdueIndex, streamViewType } = TABLE;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
    AttributeDefinitions: [
      partitionKey,
      sortKey,
      paymentsIndex.partitionKey,
      paymentsIndex.sortKey,
      overdueIndex.partitionKey,
      overdueIndex.sortKey,
    ].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: paymentsIndex.name,
        KeySchema: [
          { AttributeName: paymentsIndex.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: paymentsIndex.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'ALL' as const },
      },
      overdueIndexInput(),
    ],
  };
}

/** GSI2 as CreateTable and UpdateTable take it (an existing local table gains it at start: infra/local/dynamodb-local.ts). */
export function overdueIndexInput() {
  const { overdueIndex } = TABLE;
  return {
    IndexName: overdueIndex.name,
    KeySchema: [
      { AttributeName: overdueIndex.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: overdueIndex.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...overdueIndex.nonKeyAttributes] },
  };
}
