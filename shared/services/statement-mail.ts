/**
 * A client statement's e-mail (docs/receivables.md "One client: the statement"), one attempt's message: the mailer
 * (./mail-delivery.ts) reads the client and the account, reads the statement of the job's range as it stands, draws its
 * PDF and builds the MIME message; or says why it is not sent (the account or the client gone, or the period now too
 * long for one statement). Also the shapes an attempt's preparation has, shared with the invoice's.
 */

import { visibleClient } from '../domain/client.ts';
import type { Invoice } from '../domain/invoice.ts';
import { Refusal } from '../domain/refusal.ts';
import { buildDocumentMessage } from '../outbound/mime-message.ts';
import { renderStatementPdf } from '../render/engines.ts';
import { statementEmailContent } from '../render/statement-email.ts';
import { accountLogoKey, logoFrom } from '../store/account-logo.ts';
import { type Account, getAccount } from '../store/accounts.ts';
import { batchGet } from '../store/batch.ts';
import { clientFrom, clientKey } from '../store/clients.ts';
import type { MailJob, StatementMail } from '../store/mail.ts';
import { readStatementOf, statementDocumentOf } from './client-statement.ts';

/** The invoice (none for a statement) and the account as the attempt read them: the outcome is recorded on them. */
export interface Read {
  invoice: Invoice | undefined;
  account: Account | undefined;
}

/** What an attempt sends (the raw MIME message), or why it sends nothing; with what it read. */
export type PreparedMail = { raw: Buffer; read: Read } | { notToSend: string; read: Read };

export async function prepareStatementMail(
  job: MailJob,
  statement: StatementMail,
  mailFrom: () => string,
): Promise<PreparedMail> {
  const key = clientKey(job.companyId, statement.clientId);
  const [account, items] = await Promise.all([
    getAccount(job.companyId),
    batchGet([key, accountLogoKey(job.companyId)]),
  ]);
  const read: Read = { invoice: undefined, account };
  if (!account) return { notToSend: 'The account no longer exists.', read };
  const client = visibleClient(clientFrom(items, key), job.companyId, { includeDeleted: true });
  if (!client.ok) return { notToSend: 'The client no longer exists.', read };
  let reading: Awaited<ReturnType<typeof readStatementOf>>;
  try {
    reading = await readStatementOf(client.value, statement);
  } catch (error) {
    if (error instanceof Refusal) return { notToSend: error.message, read }; // more lines than one statement holds
    throw error;
  }
  const document = statementDocumentOf(reading, account, logoFrom(items, job.companyId));
  const content = statementEmailContent(document);
  const pdf = await renderStatementPdf(document);
  const from = { name: account.name, address: mailFrom() };
  const raw = await buildDocumentMessage({ from, merchant: document.merchant, to: job.to, cc: job.cc, content, pdf });
  return { raw, read };
}
