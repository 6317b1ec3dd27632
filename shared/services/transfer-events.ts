/**
 * A `charge.success` on a client's dedicated virtual account (channel `dedicated_nuban`), processed
 * (docs/bank-transfers.md "Matching"): verified with Paystack like any payment, its customer names the client, and the
 * transfer is recorded once per reference (./record-transfer.ts). A customer no client of the account has (an account
 * not opened by this service) is kept as ignored in `paystack:events`, the money on the merchant's Paystack balance.
 */
import { loadConfig } from '../config.ts';
import { paystackSecretKey, readPaystackConnection } from '../store/paystack-connections.ts';
import { findCustomerClient } from '../store/virtual-accounts.ts';
import { recordTransfer } from './record-transfer.ts';

/** What processing came to, as the provider event records it. */
export interface TransferProcessed {
  state: 'recorded' | 'duplicate' | 'ignored' | 'failed';
  outcome: string;
  paymentId?: number;
}

export async function processTransferEvent(
  companyId: number,
  reference: string | undefined,
): Promise<TransferProcessed> {
  if (!reference) return { state: 'ignored', outcome: 'unknown_reference' };
  const secretKey = await paystackSecretKey(await readPaystackConnection(companyId));
  if (!secretKey) return { state: 'failed', outcome: 'the account is not connected to Paystack' };
  const { PaystackApi } = await import('../outbound/paystack.ts');
  const verified = await new PaystackApi(secretKey, { baseUrl: loadConfig().paystackBaseUrl }).verify(reference);
  if (!verified.ok) {
    const { failure } = verified;
    if (failure.kind === 'unavailable') return { state: 'failed', outcome: `verify unavailable: ${failure.detail}` };
    return { state: 'ignored', outcome: `verify refused: ${failure.message}` };
  }
  const charge = verified.value;
  if (charge.status !== 'success') return { state: 'ignored', outcome: 'not_successful' };
  if (charge.currency !== 'NGN') return { state: 'ignored', outcome: 'not_ngn' };
  if (!charge.transfer || charge.amountKobo <= 0)
    return { state: 'ignored', outcome: 'not a transfer to a dedicated account' };
  const clientId = await findCustomerClient(companyId, charge.transfer.customerCode);
  if (clientId === undefined) return { state: 'ignored', outcome: 'unknown_customer' };
  const recorded = await recordTransfer({ companyId, clientId, charge: { ...charge, transfer: charge.transfer } });
  const paymentId = recorded.paymentIds[0];
  const summary = `${recorded.paymentIds.length} payment(s), credit ${recorded.creditKobo} kobo`;
  return {
    state: recorded.outcome === 'recorded' ? 'recorded' : 'duplicate',
    outcome: recorded.outcome === 'recorded' ? `transfer recorded: ${summary}` : `already recorded: ${summary}`,
    ...(paymentId === undefined ? {} : { paymentId }),
  };
}
