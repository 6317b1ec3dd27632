/**
 * A client's credit (docs/bank-transfers.md "Client credit"): applied to the client's open invoices, oldest due first,
 * as payments with channel `Credit` (after an invoice is created, and whenever it is asked); refunded by
 * `POST /clients/{id}/credit/refund` — the part that came from transfers through Paystack (a refund job per
 * transaction, in the same transaction as the debit), the rest recorded as paid back by hand. Every change rewrites the
 * balance on condition of the version read (store/client-credit.ts), so it is exact under concurrency.
 */
import { todayForOverdue } from '../clock.ts';
import { visibleClient } from '../domain/client.ts';
import { applyCreditAmount, type ClientCredit, planCreditRefund } from '../domain/client-credit.ts';
import { type CalendarDate, formatTimestamp, fromEpochSeconds, todayIn, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { applyPayment, newPayment } from '../domain/payment-acceptance.ts';
import { applyCredit, CREDIT_CHANNEL, type OpenInvoice } from '../domain/transfer-allocation.ts';
import { PAYMENTS_PER_STEP } from '../domain/transfer-recording.ts';
import { clientCreditChangedEvents } from '../domain/webhook-events.ts';
import { isFailure, success } from '../outcome.ts';
import { creditChangedData, creditRefunded } from '../representation/bank-transfer-answers.ts';
import { accountFromItem } from '../store/accounts.ts';
import { queryOpenInvoices } from '../store/aging.ts';
import { itemOf } from '../store/batch.ts';
import {
  type CreditLine,
  clientCreditKey,
  creditChangeActions,
  creditFrom,
  readClientCredit,
} from '../store/client-credit.ts';
import { clientFrom, clientKey } from '../store/clients.ts';
import { mergeCounterUpdates } from '../store/counter-merge.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { type Key, keys } from '../store/keys.ts';
import { refundJobPut } from '../store/refund-jobs.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { virtualAccountFrom, virtualAccountKey } from '../store/virtual-accounts.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type TransactItem, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { newUlid } from '../ulid.ts';
import type { RequestContext } from './context.ts';
import { recordedPaymentWrites } from './payment-plan.ts';

/** How many of a client's open invoices a credit or transfer considers at most (the oldest due). */
const OPEN_INVOICES_READ = 500;

/** The client's open invoices' reference codes and item keys (a filtered Query of the account's open invoices). */
export async function openInvoiceKeysOfClient(
  companyId: number,
  clientId: number,
): Promise<{ referenceCodes: string[]; keys: Key[] }> {
  const page = await queryOpenInvoices(companyId, {}, OPEN_INVOICES_READ, { clientId });
  const referenceCodes = page.entries.map((entry) => entry.referenceCode);
  return { referenceCodes, keys: referenceCodes.flatMap(invoiceKeys) };
}

/** An invoice as the allocation rules see it (numbers come with numbered invoices; until then none is named). */
export function openInvoiceOf(invoice: Invoice): OpenInvoice {
  const { details, balance } = invoice;
  return {
    referenceCode: details.referenceCode,
    number: '',
    amountDueKobo: balance.amountDueKobo,
    dueDate: fromEpochSeconds(details.dueDate),
    issueDate: isoDateOf(details.createdAt),
  };
}

const isoDateOf = (timestamp: string): CalendarDate => {
  const [year, month, day] = timestamp.slice(0, 10).split('-').map(Number);
  return { year: year!, month: month!, day: day! };
};

/**
 * The balance's rewrite and line of one change, and its `client.credit_changed` event (every change of credit goes
 * through here, so every change is announced once, in its own transaction).
 */
export function creditChangeWrites(
  ids: { companyId: number; clientId: number },
  before: ClientCredit,
  after: ClientCredit,
  line: CreditLine,
): TransactItem[] {
  const now = Date.now();
  const change = { kind: line.kind, amountKobo: line.amountKobo, reference: line.transferReference };
  const data = creditChangedData(ids.clientId, after, change);
  const context = { companyId: ids.companyId, createdAt: line.recordedAt, newUlid: newEventUlid };
  return [
    ...creditChangeActions(tableName(), ids, before, after, line),
    ...eventPuts(clientCreditChangedEvents(data, context), now),
  ];
}

/**
 * After an invoice is created: the client's credit, if it has any, paid towards its open invoices (the new one among
 * them), oldest due first. The invoice's answer is as created; the payments from credit follow it at once.
 * `seenBalanceKobo`: the credit the invoice's own transaction read and held unchanged (a client named by id), so
 * that only a client with credit costs a read more.
 */
export async function applyCreditAfterInvoice(result: WriteResult, seenBalanceKobo?: number): Promise<void> {
  const outcome = result.response;
  if (result.replayed || isFailure(outcome) || outcome.status !== 201) return;
  // The invoice's transaction held the credit it read unchanged: none then is none now, without reading again.
  if (seenBalanceKobo === 0) return;
  const data = outcome.data as { company_id?: unknown; client_id?: unknown };
  const [companyId, clientId] = [Number(data.company_id), Number(data.client_id)];
  if (!Number.isSafeInteger(companyId) || !Number.isSafeInteger(clientId)) return;
  const balanceKobo = seenBalanceKobo ?? (await readClientCredit(companyId, clientId)).balanceKobo;
  if (balanceKobo > 0) await applyClientCredit(companyId, clientId);
}

/** Applies the client's credit to its open invoices until either runs out; returns the payments' ids. */
export async function applyClientCredit(companyId: number, clientId: number): Promise<number[]> {
  const ids: number[] = [];
  for (;;) {
    const step = await creditStep(companyId, clientId);
    ids.push(...step.paymentIds);
    if (step.done) return ids;
  }
}

interface CreditStepAnswer {
  paymentIds: number[];
  done: boolean;
}

async function creditStep(companyId: number, clientId: number): Promise<CreditStepAnswer> {
  const step: CreditStep = { companyId, clientId, ids: undefined, openCodes: [] };
  try {
    const result = await executeWrite(
      {
        keys: async () => {
          const open = await openInvoiceKeysOfClient(companyId, clientId);
          step.openCodes = open.referenceCodes;
          step.ids ??= new IdAllocator(
            tableName(),
            companyId,
            'payment',
            Math.min(PAYMENTS_PER_STEP, Math.max(1, open.referenceCodes.length)),
          );
          const idKeys = await step.ids.keysToRead();
          return [keys.account(companyId), clientCreditKey(companyId, clientId), ...open.keys, ...idKeys];
        },
        settle: (committed) => step.ids?.settle(committed),
        decide: (items, attempt) => planCreditStep(step, items, attempt),
      },
      undefined,
    );
    return (result.response as { data: CreditStepAnswer }).data;
  } finally {
    step.ids?.release();
  }
}

interface CreditStep {
  companyId: number;
  clientId: number;
  /** One claim of the step's payment ids: one per open invoice, PAYMENTS_PER_STEP at most. */
  ids: IdAllocator | undefined;
  openCodes: string[];
}

function planCreditStep(step: CreditStep, items: Map<string, Item>, attempt: number): WritePlan {
  const { companyId, clientId } = step;
  const before = creditFrom(items, companyId, clientId);
  const invoices = new Map<string, Invoice>();
  for (const code of step.openCodes) {
    const invoice = invoiceFrom(items, code);
    if (invoice && invoice.details.clientId === clientId && invoice.balance.deletedAt === null)
      invoices.set(code, invoice);
  }
  const whole = applyCredit(before.balanceKobo, [...invoices.values()].map(openInvoiceOf));
  if (whole.payments.length === 0) return { actions: [], response: success(200, { paymentIds: [], done: true }) };
  const claim = claimId(step.ids!, items);
  const chosen = whole.payments.slice(0, claim.ids.length);
  const done = whole.payments.length <= claim.ids.length;
  const account = accountFromItem(itemOf(items, keys.account(companyId))!);
  const now = formatTimestamp(new Date());
  const today = todayIn(account.timeZone);
  let credit = before;
  const actions: TransactItem[] = [];
  const paymentIds: number[] = [];
  chosen.forEach((allocated, index) => {
    const invoice = invoices.get(allocated.referenceCode)!;
    const writes = creditPaymentWrites({
      invoice,
      items,
      claimedId: claim.ids[index]!,
      amountKobo: allocated.amountKobo,
      attempt,
      now,
      account,
      today,
    });
    actions.push(...writes.actions);
    paymentIds.push(writes.paymentId);
    credit = applyCreditAmount(credit, allocated.amountKobo);
  });
  const applied = before.balanceKobo - credit.balanceKobo;
  const line = { kind: 'applied' as const, amountKobo: applied, recordedAt: now, date: toIsoDate(today) };
  actions.push(...creditChangeWrites({ companyId, clientId }, before, credit, line), ...sequenceActions([claim]));
  return { actions: mergeCounterUpdates(actions), response: success(200, { paymentIds, done }) };
}

interface CreditPaymentFacts {
  invoice: Invoice;
  items: Map<string, Item>;
  claimedId: number;
  amountKobo: number;
  attempt: number;
  now: string;
  account: { companyId: number; currency: string; timeZone: string; sendReceipts?: boolean };
  today: CalendarDate;
}

/** A payment with channel `Credit` and everything a recorded payment writes (./payment-plan.ts). */
function creditPaymentWrites(facts: CreditPaymentFacts): { paymentId: number; actions: TransactItem[] } {
  const { invoice, items, account, now } = facts;
  const previousPaymentId = latestPaymentFrom(items, invoice.details.referenceCode)?.id;
  const request = { amountKobo: facts.amountKobo, date: facts.today, channel: CREDIT_CHANNEL };
  const ids = { id: facts.claimedId, recordedId: newUlid(), previousPaymentId };
  const payment = newPayment(invoice, ids, request, account.currency, now);
  const balance = applyPayment(invoice.balance, payment.amountKobo, now);
  if (!balance.ok) throw new Error(`a payment from credit was refused: ${balance.refusal.code}`);
  const writes = recordedPaymentWrites({
    companyId: account.companyId,
    todayForOverdue: todayForOverdue(account.timeZone),
    sendReceipts: account.sendReceipts === true,
    invoice,
    balance: balance.value,
    settles: balance.value.amountDueKobo === 0,
    payment,
    attempt: facts.attempt,
    now,
  });
  return { paymentId: payment.id, actions: writes.actions };
}

/** `POST /clients/{id}/credit/refund`: gives back `amountKobo` of the client's credit (deleted clients too). */
export function refundClientCredit(
  context: RequestContext,
  clientId: number,
  amountKobo: number,
): Promise<WriteResult> {
  const { companyId } = context.account;
  const byId = clientKey(companyId, clientId);
  return executeWrite(
    {
      keys: () => [byId, clientCreditKey(companyId, clientId), virtualAccountKey(companyId, clientId)],
      decide(items) {
        const client = visibleClient(clientFrom(items, byId), companyId, { includeDeleted: true });
        if (!client.ok) throw client.refusal;
        const before = creditFrom(items, companyId, clientId);
        const plan = planCreditRefund(before, amountKobo);
        if (!plan.ok) throw plan.refusal;
        const now = formatTimestamp(new Date());
        const { throughPaystack, byHandKobo } = plan.value;
        const line: CreditLine = {
          kind: 'refunded',
          amountKobo,
          recordedAt: now,
          date: toIsoDate(context.today),
          refund: { throughPaystack, byHandKobo },
        };
        const jobs = throughPaystack.map((part) =>
          refundJobPut(tableName(), {
            jobId: `rfj_${newUlid()}`,
            companyId,
            paymentId: 0,
            referenceCode: '',
            reference: part.reference,
            transactionId: '',
            amountKobo: part.amountKobo,
            reason: 'credit',
            createdAt: now,
            clientId,
          }),
        );
        const banking = { virtualAccount: virtualAccountFrom(items, companyId, clientId), credit: plan.value.credit };
        return {
          actions: [...creditChangeWrites({ companyId, clientId }, before, plan.value.credit, line), ...jobs],
          response: creditRefunded(client.value, banking, { amountKobo, throughPaystack, byHandKobo }),
        };
      },
    },
    undefined,
  );
}
