/**
 * Clients' dedicated virtual accounts (docs/bank-transfers.md "Virtual accounts"; docs/data-design.md "Bank
 * transfers"): one item per client with the account Paystack gave it, and one per Paystack customer naming the client,
 * so a transfer's customer finds its client in one read. Both are put once, together, on condition that neither
 * exists: of concurrent creations one commits and the others read it.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { VirtualAccount } from '../domain/virtual-account.ts';
import { itemOf } from './batch.ts';
import { cancellationReasons } from './database-errors.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { type Key, keys } from './keys.ts';

export const virtualAccountKey = (companyId: number, clientId: number): Key => keys.virtualAccount(companyId, clientId);
export const virtualAccountCustomerKey = (companyId: number, customerCode: string): Key =>
  keys.virtualAccountCustomer(companyId, customerCode);

function accountFromItem(item: Item | undefined): VirtualAccount | undefined {
  if (item?.entity !== 'virtual_account') return undefined;
  return {
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    bankName: String(item.bank_name),
    accountName: String(item.account_name),
    accountNumber: String(item.account_number),
    customerCode: String(item.customer_code),
    createdAt: String(item.created_at),
  };
}

export const virtualAccountFrom = (items: Map<string, Item>, companyId: number, clientId: number) =>
  accountFromItem(itemOf(items, virtualAccountKey(companyId, clientId)));

export async function readVirtualAccount(companyId: number, clientId: number): Promise<VirtualAccount | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: virtualAccountKey(companyId, clientId), ConsistentRead: true }),
  );
  return accountFromItem(out.Item);
}

/** The client a Paystack customer's account belongs to; undefined for a customer no client has. */
export async function findCustomerClient(companyId: number, customerCode: string): Promise<number | undefined> {
  if (customerCode === '') return undefined;
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: virtualAccountCustomerKey(companyId, customerCode),
      ConsistentRead: true,
    }),
  );
  const clientId = Number(out.Item?.client_id);
  return Number.isSafeInteger(clientId) ? clientId : undefined;
}

/** Keeps the client's account: the one given, or — when another creation committed first — that one. */
export async function keepVirtualAccount(account: VirtualAccount): Promise<VirtualAccount> {
  const { companyId, clientId, customerCode } = account;
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...virtualAccountKey(companyId, clientId),
                entity: 'virtual_account',
                company_id: companyId,
                client_id: clientId,
                bank_name: account.bankName,
                account_name: account.accountName,
                account_number: account.accountNumber,
                customer_code: customerCode,
                created_at: account.createdAt,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...virtualAccountCustomerKey(companyId, customerCode),
                entity: 'virtual_account_customer',
                company_id: companyId,
                client_id: clientId,
              },
              ConditionExpression: 'attribute_not_exists(PK) OR client_id = :client',
              ExpressionAttributeValues: { ':client': clientId },
            },
          },
        ],
      }),
    );
    return account;
  } catch (error) {
    if (!(cancellationReasons(error) ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed')) throw error;
    const kept = await readVirtualAccount(companyId, clientId);
    if (!kept) throw error;
    return kept;
  }
}
