/**
 * Paystack inside `npm start` (docs/getting-paid-online.md "Locally"; docs/running-locally.md): the local
 * Paystack-compatible server (infra/local/paystack/) on PAYSTACK_PORT, its state under DATA_DIR/paystack, the service
 * pointed at it (PAYSTACK_BASE_URL, unless that names another server), and the demo account connected to it with a
 * test key of its own, whose `paystack_webhook_url` is set as that integration's webhook URL — as a merchant pastes it
 * into Paystack's dashboard.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { paystackWebhookUrl } from '../../shared/domain/paystack-connection.ts';
import { connectPaystack, readPaystackConnection } from '../../shared/store/paystack-connections.ts';
import { type LocalPaystack, startLocalPaystack } from './paystack/server.ts';

export interface PaystackSettings {
  dataDir: string;
  host: string;
  paystackPort: number;
  /** Whether PAYSTACK_PORT was set: when it was not and the default is taken, a free port is used. */
  paystackPortExplicit: boolean;
}

/**
 * Starts the local server and points the service at it; undefined when PAYSTACK_BASE_URL names another
 * Paystack-compatible server (then nothing is started, and accounts are connected with `account:update`).
 */
export async function startPaystackForLocalRun(
  settings: PaystackSettings,
  log: (message: string, error?: unknown) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LocalPaystack | undefined> {
  if (env.PAYSTACK_BASE_URL) return undefined;
  const options = { host: settings.host, dataDir: join(settings.dataDir, 'paystack'), log };
  let paystack: LocalPaystack;
  try {
    paystack = await startLocalPaystack({ ...options, port: settings.paystackPort });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    if (settings.paystackPortExplicit)
      throw new Error(
        `PAYSTACK_PORT ${settings.paystackPort} is already in use. Stop what uses it, or set PAYSTACK_PORT to a free port.`,
      );
    paystack = await startLocalPaystack({ ...options, port: 0 });
  }
  // Read by the configuration when the local runtime points it at DynamoDB Local (it reads the environment again).
  env.PAYSTACK_BASE_URL = paystack.url;
  return paystack;
}

/** A test secret key for the demo account (an integration of its own on the local server). */
export const newDemoPaystackKey = (): string => `sk_test_${randomBytes(20).toString('hex')}`;

/**
 * Connects the demo account with `secretKey` (unless it already is, with that key) and sets its webhook URL on the
 * local server's integration (`POST /_local/integration`). Returns the webhook URL.
 */
export async function connectDemoAccount(
  paystack: LocalPaystack,
  companyId: number,
  secretKey: string,
  publicBaseUrl: string,
): Promise<string> {
  let connection = await readPaystackConnection(companyId);
  if (connection.keyLast4 !== secretKey.slice(-4) || !connection.hookId)
    connection = (await connectPaystack(companyId, secretKey)) ?? connection;
  const webhookUrl = paystackWebhookUrl(publicBaseUrl, connection.hookId!);
  const response = await fetch(`${paystack.url}/_local/integration`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_url: webhookUrl, business_name: 'Demo Company' }),
  });
  if (!response.ok)
    throw new Error(`The local Paystack server refused the demo's webhook URL: ${await response.text()}`);
  return webhookUrl;
}
