/**
 * `POST /clients/{id}/virtual-account` (docs/bank-transfers.md "Virtual accounts"): the client's dedicated virtual
 * account, made once through Paystack (`POST /customer`, then `POST /dedicated_account` at the account's preferred
 * bank) and kept; asked again, the same account. Paystack answers one customer per e-mail and one account per
 * customer, so concurrent requests get the same account from it, and one of them keeps it (store/virtual-accounts.ts).
 */
import { loadConfig } from '../config.ts';
import { visibleClient } from '../domain/client.ts';
import { formatTimestamp } from '../domain/dates.ts';
import type { ClientRecord } from '../domain/invoice.ts';
import { Refusal } from '../domain/refusal.ts';
import { paystackCustomerOf, type VirtualAccount } from '../domain/virtual-account.ts';
import type { PaystackRefused, PaystackUnavailable } from '../outbound/paystack.ts';
import { type ClientBanking, virtualAccountShown } from '../representation/bank-transfer-answers.ts';
import { batchGet } from '../store/batch.ts';
import { clientCreditKey, creditFrom } from '../store/client-credit.ts';
import { clientFrom, clientKey } from '../store/clients.ts';
import { paystackSecretKey, readPaystackConnection } from '../store/paystack-connections.ts';
import { keepVirtualAccount, virtualAccountFrom, virtualAccountKey } from '../store/virtual-accounts.ts';
import type { WriteResult } from '../store/write-executor.ts';
import type { RequestContext } from './context.ts';

/** The client (live or, with `includeDeleted`, deleted) with its virtual account and credit, in one read. */
export async function readClientBanking(
  companyId: number,
  clientId: number,
  options: { includeDeleted: boolean },
): Promise<{ client: ClientRecord; banking: ClientBanking }> {
  const byId = clientKey(companyId, clientId);
  const items = await batchGet([byId, virtualAccountKey(companyId, clientId), clientCreditKey(companyId, clientId)]);
  const client = visibleClient(clientFrom(items, byId), companyId, options);
  if (!client.ok) throw client.refusal;
  const banking = {
    virtualAccount: virtualAccountFrom(items, companyId, clientId),
    credit: creditFrom(items, companyId, clientId),
  };
  return { client: client.value, banking };
}

export async function createVirtualAccount(context: RequestContext, clientId: number): Promise<WriteResult> {
  const { companyId } = context.account;
  const { client, banking } = await readClientBanking(companyId, clientId, { includeDeleted: false });
  if (banking.virtualAccount) return answered(virtualAccountShown(client, banking));
  const connection = await readPaystackConnection(companyId);
  const secretKey = await paystackSecretKey(connection);
  if (!secretKey)
    throw new Refusal('payments_not_connected', 'Connect the account to Paystack before opening virtual accounts.');
  const { PaystackApi } = await import('../outbound/paystack.ts');
  const paystack = new PaystackApi(secretKey, { baseUrl: loadConfig().paystackBaseUrl });
  const customer = await paystack.createCustomer(paystackCustomerOf(client));
  if (!customer.ok) throw providerRefusal(customer.failure);
  const account = await paystack.createDedicatedAccount({
    customerCode: customer.value.customerCode,
    preferredBank: connection.preferredBank,
  });
  if (!account.ok) throw providerRefusal(account.failure);
  const kept = await keepVirtualAccount({
    companyId,
    clientId,
    ...account.value,
    customerCode: customer.value.customerCode,
    createdAt: formatTimestamp(new Date()),
  } satisfies VirtualAccount);
  return answered(virtualAccountShown(client, { ...banking, virtualAccount: kept }));
}

const answered = (response: WriteResult['response']): WriteResult => ({ response, replayed: false });

function providerRefusal(failure: PaystackUnavailable | PaystackRefused): Refusal {
  if (failure.kind === 'unavailable')
    return new Refusal('provider_unavailable', `Paystack could not be reached (${failure.detail}); try again.`);
  return new Refusal('virtual_account_refused', `Paystack refused the virtual account: ${failure.message}`);
}
