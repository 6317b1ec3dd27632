/**
 * Captures the OpenAPI examples from real responses: starts an in-memory DynamoDB Local and the local
 * HTTP server (the same handlers Lambda runs), sends one request per documented outcome of every route,
 * and returns requests and responses as `shared/openapi/examples.json` holds them. Outcomes that need a
 * failing or racing database (500, 503, the in-flight 409) are produced by DynamoDB faults injected
 * through `dynamoHooks` (scripts/capture-tools.ts), so their bodies still come from the real error path.
 *
 * Run through `npm run openapi -- --capture-examples` (which sets LOG_LEVEL and disables metrics first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usDate } from '../infra/local/banner.ts';
import { ensureTable, startDynamoDbLocal } from '../infra/local/dynamodb-local.ts';
import { startLocalPaystack } from '../infra/local/paystack/server.ts';
import { createLocalServer, type LocalServer } from '../infra/local/server.ts';
import { useLocalDynamoDb } from '../infra/local/settings.ts';
import type { CapturedExamples } from '../shared/openapi/document.ts';
import { createAccount } from '../shared/store/accounts.ts';
import { captureBankTransferExamples } from './capture-bank-transfer-examples.ts';
import { captureCreditNoteExamples } from './capture-credit-note-examples.ts';
import { captureMailExamples } from './capture-mail-examples.ts';
import { captureOnlineExamples } from './capture-online-examples.ts';
import { captureRecurringExamples } from './capture-recurring-examples.ts';
import { captureReminderExamples } from './capture-reminder-examples.ts';
import {
  captureAddInvoice,
  captureAddInvoiceErrors,
  captureAddPayment,
  captureAddPaymentErrors,
  capturePaymentHistory,
  captureResourceExamples,
  captureRoutingAndForm,
  NEW_CLIENT_INVOICE,
} from './capture-resource-examples.ts';
import { CaptureSession } from './capture-tools.ts';

async function listenLocally(server: LocalServer): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: LocalServer): Promise<void> {
  server.closeAllConnections();
  if (server.listening) await new Promise<void>((r) => server.close(() => r()));
}

/** Every example, in the order that gives them their ids. */
async function captureAll(
  session: CaptureSession,
  local: { baseUrl: string; paystackUrl: string },
): Promise<CapturedExamples> {
  const invoice = await captureAddInvoice(session);
  await captureAddInvoiceErrors(session);
  const payment = await captureAddPayment(session, invoice);
  await captureAddPaymentErrors(session, payment);
  const history = await capturePaymentHistory(session);
  const more = await captureResourceExamples(session);
  const mail = await captureMailExamples(session);
  const reminders = await captureReminderExamples(session);
  const recurring = await captureRecurringExamples(session);
  const creditNotes = await captureCreditNoteExamples(session);
  await captureOnlineExamples(session, local);
  const transfers = await captureBankTransferExamples(session, local);
  const form = await captureRoutingAndForm(session);
  return {
    requests: {
      'add-invoice': { json: NEW_CLIENT_INVOICE, form },
      'add-payment': { json: payment, form: new URLSearchParams(payment).toString() },
      'payment-history': { json: history, form: 'period=month&limit=2' },
      ...more.requests,
      ...mail.requests,
      ...reminders.requests,
      ...recurring.requests,
      ...creditNotes.requests,
      ...transfers.requests,
    },
    responses: session.responses,
  };
}

/**
 * Every example, or with `only` just one part's (the others kept from the file: `npm run openapi --
 * --capture-examples=bank-transfers`).
 */
export async function captureExamples(only?: 'bank-transfers'): Promise<CapturedExamples> {
  const database = await startDynamoDbLocal();
  const server = createLocalServer({ logger: {} });
  const shortBudgetServer = createLocalServer({ logger: {}, timeoutMs: 2_500 });
  // The local Paystack server, and a DATA_DIR for its state and the local sealing key (docs/getting-paid-online.md).
  const dataDir = mkdtempSync(join(tmpdir(), 'examples-'));
  const paystack = await startLocalPaystack({ port: 0, dataDir: join(dataDir, 'paystack'), log: () => {} });
  try {
    const tableName = 'invoicing-examples';
    await ensureTable(database.endpoint, tableName);
    Object.assign(process.env, { PAYSTACK_BASE_URL: paystack.url, DATA_DIR: dataDir });
    useLocalDynamoDb(database.endpoint, tableName);
    const baseUrl = await listenLocally(server);
    const shortBudgetUrl = await listenLocally(shortBudgetServer);
    const { secretKey } = await createAccount({ name: 'Obi Ventures Ltd' });
    const today = usDate(new Date(), 'Africa/Lagos');
    const session = new CaptureSession({ baseUrl, shortBudgetUrl, secretKey, today });
    if (only !== 'bank-transfers') return await captureAll(session, { baseUrl, paystackUrl: paystack.url });
    const { requests } = await captureBankTransferExamples(session, { paystackUrl: paystack.url });
    return { requests, responses: session.responses };
  } finally {
    await closeServer(server);
    await closeServer(shortBudgetServer);
    await paystack.stop();
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
