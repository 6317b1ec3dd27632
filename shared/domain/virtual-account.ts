/**
 * A client's dedicated virtual account (docs/bank-transfers.md "Virtual accounts"), pure: what Paystack is asked for
 * (a customer needs a first name, a last name and a phone before it gets an account), and the account as shown.
 */
import type { ClientRecord } from './invoice.ts';

export interface VirtualAccount {
  companyId: number;
  clientId: number;
  bankName: string;
  accountName: string;
  accountNumber: string;
  /** The Paystack customer the account belongs to (`CUS_…`): how a transfer names its client. */
  customerCode: string;
  /** YYYY-MM-DD HH:MM:SS (UTC). */
  createdAt: string;
}

/** The Paystack customer of a client: its contact's names, else its company name split in two. */
export function paystackCustomerOf(client: ClientRecord): {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
} {
  const [first, ...rest] = client.name.trim().split(/\s+/);
  return {
    email: client.email,
    firstName: client.firstName.trim() || first || client.name,
    lastName: client.lastName.trim() || rest.join(' ') || first || client.name,
    phone: client.phone,
  };
}

/** The line an invoice's page, PDF and e-mail show above the manual payment instructions. */
export const payByTransferLine = (account: Pick<VirtualAccount, 'bankName' | 'accountName' | 'accountNumber'>) =>
  `Pay by transfer to ${account.bankName} ${account.accountNumber} (${account.accountName})`;
