/**
 * E-mailing a client's statement (docs/receivables.md "One client: the statement"), pure: who it goes to. The client's own address
 * unless the request names one; a client with no valid address and no `to` is 422 `recipient_missing`.
 */
import { isEmailAddress } from './email-address.ts';
import type { ClientRecord } from './invoice.ts';
import { accept, type Decision, Refusal, refuse } from './refusal.ts';

export function decideStatementRecipient(client: ClientRecord, to: string | undefined): Decision<string> {
  const address = (to ?? client.email).trim();
  if (isEmailAddress(address)) return accept(address);
  const reason = address === '' ? 'has no e-mail address' : 'has an e-mail address that is not valid';
  return refuse(
    new Refusal('recipient_missing', `The client ${reason}: give one in \`to\`.`, [
      {
        code: 'required',
        field: 'to',
        message: "is required when the client's e-mail address is missing or not valid",
      },
    ]),
  );
}
