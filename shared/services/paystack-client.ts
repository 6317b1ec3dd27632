/**
 * An account's Paystack client for the background jobs (docs/getting-paid-online.md "Background processing"): its
 * sealed secret key opened (KMS deployed, kept a few minutes in a warm function) and the outbound client loaded on
 * first use, so that no function loads it before it calls Paystack.
 */
import { loadConfig } from '../config.ts';
import type { PaystackApi } from '../outbound/paystack.ts';
import { paystackSecretKey, readPaystackConnection } from '../store/paystack-connections.ts';

/** The client with the account's key; undefined when the account is not connected. */
export async function paystackOf(companyId: number): Promise<PaystackApi | undefined> {
  const secretKey = await paystackSecretKey(await readPaystackConnection(companyId));
  if (!secretKey) return undefined;
  const { PaystackApi } = await import('../outbound/paystack.ts');
  return new PaystackApi(secretKey, { baseUrl: loadConfig().paystackBaseUrl });
}
