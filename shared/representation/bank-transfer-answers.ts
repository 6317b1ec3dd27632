/**
 * What the routes of bank transfers answer (docs/bank-transfers.md): a client with its virtual account and its credit
 * (`POST /clients/{id}/virtual-account`, `POST /clients/{id}/credit/refund`, and `GET /clients/{id}` adds the same
 * two fields), and the data of `client.credit_changed`.
 */
import type { ClientCredit, CreditChangeKind, CreditSource } from '../domain/client-credit.ts';
import type { ClientRecord } from '../domain/invoice.ts';
import { formatKobo } from '../domain/money.ts';
import type { VirtualAccount } from '../domain/virtual-account.ts';
import { success } from '../outcome.ts';
import { type Answer, clientView } from './views.ts';

export const VIRTUAL_ACCOUNT_READY = 'Virtual account ready.';
export const CREDIT_REFUNDED = 'Credit refunded.';

export interface ClientBanking {
  virtualAccount: VirtualAccount | undefined;
  credit: ClientCredit;
}

export const virtualAccountView = (account: VirtualAccount) => ({
  bank_name: account.bankName,
  account_name: account.accountName,
  account_number: account.accountNumber,
});

/** The two fields a client gains: its virtual account (null until made) and its credit (a money string). */
export const bankingFields = ({ virtualAccount, credit }: ClientBanking) => ({
  virtual_account: virtualAccount ? virtualAccountView(virtualAccount) : null,
  credit_balance: formatKobo(credit.balanceKobo),
});

export const virtualAccountShown = (client: ClientRecord, banking: ClientBanking): Answer =>
  success(200, { ...clientView(client), ...bankingFields(banking) }, VIRTUAL_ACCOUNT_READY);

/** A refund of credit: the client as it is after (with its credit), and how the money went back. */
export const creditRefunded = (
  client: ClientRecord,
  banking: ClientBanking,
  refund: { amountKobo: number; throughPaystack: CreditSource[]; byHandKobo: number },
): Answer =>
  success(
    200,
    {
      client: { ...clientView(client), ...bankingFields(banking) },
      refund: {
        amount: formatKobo(refund.amountKobo),
        through_paystack: refund.throughPaystack.map((part) => ({
          reference: part.reference,
          amount: formatKobo(part.amountKobo),
        })),
        by_hand: formatKobo(refund.byHandKobo),
      },
    },
    CREDIT_REFUNDED,
  );

/**
 * A statement's credit (docs/bank-transfers.md "Client credit"): the period's credit received, applied and refunded,
 * each change as a line, and the credit now. Beside the invoice ledger, not in it: credit is money held, not owed.
 */
interface ShownCreditLine {
  kind: CreditChangeKind;
  amountKobo: number;
  /** YYYY-MM-DD. */
  date: string;
  transferReference?: string | undefined;
}

export function statementCreditView(lines: readonly ShownCreditLine[], balanceKobo: number) {
  const sum = (kind: CreditChangeKind) =>
    lines.filter((line) => line.kind === kind).reduce((total, line) => total + line.amountKobo, 0);
  const total = (kind: CreditChangeKind) => formatKobo(sum(kind));
  return {
    received: total('received'),
    // A payment from credit that was reversed gave its credit back: what was applied is net of it.
    applied: formatKobo(sum('applied') - sum('application_reversed')),
    // A refund that failed for good gave its credit back: what was refunded is net of it.
    refunded: formatKobo(sum('refunded') - sum('refund_failed')),
    balance: formatKobo(balanceKobo),
    lines: lines.map((line) => ({
      date: line.date,
      kind: line.kind,
      amount: formatKobo(line.amountKobo),
      reference: line.transferReference ?? null,
    })),
  };
}

/** `client.credit_changed`'s data: the client's id and credit after the change, and the change. */
export const creditChangedData = (
  clientId: number,
  credit: ClientCredit,
  change: { kind: CreditChangeKind; amountKobo: number; reference?: string | undefined },
) => ({
  client_id: String(clientId),
  credit_balance: formatKobo(credit.balanceKobo),
  change: {
    kind: change.kind,
    amount: formatKobo(change.amountKobo),
    reference: change.reference ?? null,
  },
});
