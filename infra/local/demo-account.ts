/**
 * The demo account `npm start` seeds on first start. Its key is kept in clear in
 * `DATA_DIR/demo-account.json` as a local convenience only; real keys are never stored in clear.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isFailure } from '../../shared/outcome.ts';
import { addInvoiceSchema } from '../../shared/schemas/invoice.ts';
import { addInvoice } from '../../shared/services/add-invoice.ts';
import { requestContext } from '../../shared/services/context.ts';
import { type Account, createAccount, findAccountByKey } from '../../shared/store/accounts.ts';
import { parseRequest } from '../../shared/validation.ts';
import { demoInvoiceBody } from './banner.ts';

export interface DemoAccount {
  company_id: number;
  secret_key: string;
  /** The demo invoice the printed payment example pays (seeded with the account). */
  demo_reference_code?: string;
  /** The test key the demo account is connected to the local Paystack server with (docs/getting-paid-online.md). */
  paystack_secret_key?: string;
}

export const DEMO_ACCOUNT_NAME = 'Demo Company';

/** Where the demo account's key is kept under `dataDir`. */
export function demoAccountFile(dataDir: string): string {
  return join(dataDir, 'demo-account.json');
}

function readSaved(file: string): DemoAccount | undefined {
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoAccount>;
    if (typeof saved.company_id === 'number' && typeof saved.secret_key === 'string') {
      return {
        company_id: saved.company_id,
        secret_key: saved.secret_key,
        ...(typeof saved.demo_reference_code === 'string' ? { demo_reference_code: saved.demo_reference_code } : {}),
        ...(typeof saved.paystack_secret_key === 'string' ? { paystack_secret_key: saved.paystack_secret_key } : {}),
      };
    }
  } catch {
    // Missing or unreadable: seed a new one.
  }
  return undefined;
}

/**
 * Returns the saved demo account if its key still works against the current table, otherwise
 * creates one and saves it (so deleting only the database, or switching TABLE_NAME, reseeds).
 * Needs the store pointed at the database already (DYNAMODB_ENDPOINT, TABLE_NAME).
 */
export async function ensureDemoAccount(dataDir: string): Promise<{ account: DemoAccount; created: boolean }> {
  const file = demoAccountFile(dataDir);
  const saved = readSaved(file);
  if (saved) {
    const account = await findAccountByKey(saved.secret_key);
    if (account?.companyId === saved.company_id) {
      if (saved.demo_reference_code) return { account: saved, created: false };
      // A demo account from before demo invoices existed: give it one.
      return {
        account: save(file, { ...saved, demo_reference_code: await createDemoInvoice(account) }),
        created: false,
      };
    }
  }
  const { account, secretKey } = await createAccount({ name: DEMO_ACCOUNT_NAME });
  const demo: DemoAccount = {
    company_id: account.companyId,
    secret_key: secretKey,
    demo_reference_code: await createDemoInvoice(account),
  };
  return { account: save(file, demo), created: true };
}

/** The demo account's Paystack test key, made and saved on first use. */
export function demoPaystackKey(dataDir: string, demo: DemoAccount, newKey: () => string): DemoAccount {
  if (demo.paystack_secret_key) return demo;
  return save(demoAccountFile(dataDir), { ...demo, paystack_secret_key: newKey() });
}

function save(file: string, demo: DemoAccount): DemoAccount {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}

/** The invoice the banner's payment example pays, created through the same service as POST /invoices. */
async function createDemoInvoice(account: Account): Promise<string> {
  const input = parseRequest(addInvoiceSchema, demoInvoiceBody(account.timeZone));
  const result = await addInvoice(requestContext(account, 'demo-seed'), input);
  const outcome = result.response;
  if (isFailure(outcome)) throw new Error(`Could not create the demo invoice: ${outcome.code} ${outcome.message}`);
  return (outcome.data as { reference_code: string }).reference_code;
}
