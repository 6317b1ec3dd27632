/**
 * The OpenAPI examples of bank transfers (docs/bank-transfers.md), captured against the local Paystack server the
 * capture starts: a client's virtual account and its refusals, a transfer into it kept as the client's credit, and
 * refunding that credit.
 */
import { randomBytes } from 'node:crypto';
import { withEnvironment } from '../infra/tools/environment.ts';
import { transferIntoVirtualAccount } from '../infra/tools/virtual-account-transfer.ts';
import { createAccount } from '../shared/store/accounts.ts';
import {
  connectPaystack,
  DEFAULT_PREFERRED_BANK,
  setPaystackPreferredBank,
} from '../shared/store/paystack-connections.ts';
import type { CaptureTools } from './capture-tools.ts';

const CLIENT = {
  first_name: 'Chiamaka',
  last_name: 'Eze',
  email: 'chiamaka@ezefoods.example',
  phone: '+2348034567890',
  company_name: 'Eze Foods',
};

interface Connected {
  companyId: number;
  key: string;
  paystackKey: string;
  hookId: string;
}

/** The examples; the refund's request body for `requests`. */
export async function captureBankTransferExamples(
  tools: CaptureTools,
  { paystackUrl }: { paystackUrl: string },
): Promise<{ requests: { 'refund-client-credit': { json: Record<string, unknown> } } }> {
  const { account, secretKey: key } = await createAccount({ name: 'Eze Foods Ltd' });
  const paystackKey = `sk_test_${randomBytes(20).toString('hex')}`;
  const connection = (await connectPaystack(account.companyId, paystackKey))!;
  const connected = { companyId: account.companyId, key, paystackKey, hookId: connection.hookId! };
  const clientId = (await tools.send('add-client', { key, body: CLIENT })).body.data.id as number;
  const accountNumber = await captureVirtualAccount(tools, connected, clientId);
  await transferIntoVirtualAccount({
    paystackUrl,
    secretKey: paystackKey,
    hookId: connected.hookId,
    accountNumber,
    amountKobo: 1_500_000,
    sender: { name: 'Chiamaka Eze', bank: 'Access Bank', accountNumber: '0123456789' },
    narration: 'deposit for next order',
    deliver: (hookId, body, signature) =>
      tools.send('paystack-event', {
        key: null,
        path: `/paystack/events/${hookId}`,
        body,
        headers: { 'x-paystack-signature': signature },
      }),
  });
  await captureCreditRefund(tools, key, clientId);
  return { requests: { 'refund-client-credit': { json: REFUND } } };
}

const REFUND = { amount: '5,000.00' };

async function captureVirtualAccount(tools: CaptureTools, connected: Connected, clientId: number) {
  const { capture, send, faultErrors } = tools;
  const { key } = connected;
  const path = `/clients/${clientId}/virtual-account`;
  await setPaystackPreferredBank(connected.companyId, 'no-such-bank');
  await capture('create-virtual-account', 422, 'virtual_account_refused', 'Paystack refused the preferred bank', {
    key,
    path,
  });
  await setPaystackPreferredBank(connected.companyId, DEFAULT_PREFERRED_BANK);
  await withEnvironment({ PAYSTACK_BASE_URL: 'http://127.0.0.1:9' }, () =>
    capture('create-virtual-account', 503, 'provider_unavailable', 'Paystack could not be reached', { key, path }),
  );
  await faultErrors('create-virtual-account', { key, path }, 'BatchGetItemCommand');
  const opened = await capture('create-virtual-account', 200, 'opened', 'The client with its virtual account', {
    key,
    path,
  });
  await capture('create-virtual-account', 404, 'client_not_found', 'No such client', {
    key,
    path: '/clients/999999/virtual-account',
  });
  const other = await createAccount({ name: 'Unconnected Ltd' });
  const otherClient = (await send('add-client', { key: other.secretKey, body: CLIENT })).body.data.id;
  await capture('create-virtual-account', 409, 'payments_not_connected', 'The account is not connected to Paystack', {
    key: other.secretKey,
    path: `/clients/${otherClient}/virtual-account`,
  });
  return opened.data.virtual_account.account_number as string;
}

async function captureCreditRefund(tools: CaptureTools, key: string, clientId: number) {
  const { capture, commonErrors } = tools;
  const path = `/clients/${clientId}/credit/refund`;
  await capture('refund-client-credit', 409, 'amount_exceeds_credit', 'More than the client’s credit', {
    key,
    path,
    body: { amount: '20,000.00' },
  });
  await capture('refund-client-credit', 404, 'client_not_found', 'No such client', {
    key,
    path: '/clients/999999/credit/refund',
    body: { amount: '100.00' },
  });
  await commonErrors('refund-client-credit', { amount: '1.00' }, { amount: '-5' }, 'TransactWriteItemsCommand', {
    key,
    path,
  });
  await capture('refund-client-credit', 200, 'refunded', 'Part of the credit refunded through Paystack', {
    key,
    path,
    body: REFUND,
  });
}
