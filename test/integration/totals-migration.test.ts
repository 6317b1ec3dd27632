/**
 * `data:migrate`'s second part (infra/cli/migrations/payment-totals.ts): payments recorded before period totals were kept
 * are counted in their day's totals exactly once, also when one was reversed before the migration ran.
 */
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { countLegacyPayments } from '../../infra/cli/migrations/payment-totals.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { dayTotalsKeys, keys } from '../../shared/store/keys.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

/** What the previous version left: payments without `in_totals`, and no day totals at all. */
async function makeLegacy(companyId: number, paymentIds: number[]) {
  for (const id of paymentIds)
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.payment(companyId, id),
        UpdateExpression: 'REMOVE in_totals',
      }),
    );
  const rows = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': dayTotalsKeys.partition(companyId) },
    }),
  );
  for (const row of rows.Items ?? [])
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { PK: row.PK, SK: row.SK } }));
}

const summaryOf = async (key: string) =>
  (await call('payment-history', { key, body: { period: 'today' } })).body.data.summary;

describe('data:migrate, period totals', () => {
  it('counts legacy payments once; a legacy payment reversed before the migration is only in reversed_total', async () => {
    // Prepare
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const body = (amount: string, channel: string) => ({
      reference_code: invoice.reference_code,
      date: todayMonthFirst(),
      amount,
      channel,
    });
    const ids: number[] = [];
    for (const [amount, channel] of [
      ['10.00', 'Cash'],
      ['20.00', 'POS'],
      ['40.00', 'Cheque'],
    ])
      ids.push((await call('add-payment', { key, body: body(amount, channel) })).body.data.id);
    await makeLegacy(account.companyId, ids);
    expect((await summaryOf(key)).count).toBe(0);
    const reversal = { reason: 'duplicate' };
    expect(
      (await call('reverse-payment', { key, pathParameters: { id: String(ids[2]) }, body: reversal })).status,
    ).toBe(200);

    // Act
    const counted = await countLegacyPayments();
    const again = await countLegacyPayments();

    // Assess
    expect(counted).toBeGreaterThanOrEqual(2);
    expect(again).toBe(0);
    expect(await summaryOf(key)).toEqual({
      count: 2,
      total: '30.00',
      by_channel: {
        Cash: '10.00',
        BankTransfer: '0.00',
        POS: '20.00',
        Cheque: '0.00',
        Card: '0.00',
        USSD: '0.00',
        Other: '0.00',
      },
      reversed_total: '40.00',
      wht_total: '0.00',
      currency: 'NGN',
    });
  });
});
