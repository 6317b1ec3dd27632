/** A local table created before the overdue index (GSI2) gains it when `npm start` (ensureTable) opens it. */
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local.ts';
import { createTableInput, TABLE } from '../../shared/store/table.ts';

describe('ensureTable on an existing table', () => {
  it('adds the overdue index (GSI2) to a table created without it, once', async () => {
    // Prepare: the table as the previous version created it.
    const endpoint = process.env.DYNAMODB_ENDPOINT!;
    const tableName = `before-gsi2-${Date.now()}`;
    const input = createTableInput(tableName);
    const legacy = {
      ...input,
      AttributeDefinitions: input.AttributeDefinitions.filter((a) => !a.AttributeName.startsWith('GSI2')),
      GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.filter((i) => i.IndexName !== TABLE.wakeIndex.name),
    };
    const client = localClient(endpoint);
    try {
      await client.send(new CreateTableCommand(legacy));
      // Act
      const created = [await ensureTable(endpoint, tableName), await ensureTable(endpoint, tableName)];
      // Assess
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      const gsi2 = Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === TABLE.wakeIndex.name);
      expect(created).toEqual([false, false]);
      expect(gsi2?.KeySchema).toEqual([
        { AttributeName: 'GSI2PK', KeyType: 'HASH' },
        { AttributeName: 'GSI2SK', KeyType: 'RANGE' },
      ]);
      expect(gsi2?.Projection).toEqual({ ProjectionType: 'INCLUDE', NonKeyAttributes: ['company_id'] });
      expect(Table?.GlobalSecondaryIndexes).toHaveLength(2);
    } finally {
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
    }
  });
});
