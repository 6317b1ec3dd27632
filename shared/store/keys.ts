/**
 * Every key of the single table is built here and nowhere else (entity chart in docs/data-design.md).
 *
 * | entity            | PK                                   | SK           | GSI1PK         | GSI1SK                    |
 * |-------------------|--------------------------------------|--------------|----------------|---------------------------|
 * | account           | ACCOUNT#<companyId>                  | ACCOUNT      |                |                           |
 * | id sequence       | ACCOUNT#<companyId>                  | SEQ#<entity> |                |                           |  (blocks of ids, see sequences.ts)
 * | account sequence  | SEQUENCE                             | ACCOUNT      |                |                           |
 * | document counter  | ACCOUNT#<companyId>                  | NUMBER#<kind>|                |                           |  (the last gapless number given: document-numbers.ts)
 * | api key           | APIKEY#<sha256(secret)>              | APIKEY       |                |                           |  (authentication; holds key_id, revoked_at, key_expires_at)
 * | api key by id     | APIKEYID#<keyId>                     | APIKEYID     |                |                           |  (key_id → hash: revoke by id)
 * | account's api key | ACCOUNT#<companyId>                  | APIKEY#<keyId> |              |                           |  (key_id → hash: list an account's keys)
 * | migration marker  | MIGRATION#<name>                     | MIGRATION    |                |                           |  (a one-off data migration finished)
 * | client by id      | CLIENT#<companyId>#<clientId>        | CLIENT       | CLIENTS#<co>   | <created_at>#<id, 12 digits> |  (index keys removed on delete)
 * | client by email   | CLIENTEMAIL#<companyId>#<email lc>   | CLIENTEMAIL  |                |                           |
 * | invoice header    | INVOICE#<referenceCode>              | HEADER       | INVOICES#<co>  | <created_at>#<referenceCode> |  (+ GSI2 while open and something may be due, below)
 * | invoice body      | INVOICE#<referenceCode>              | BODY         |                |                           |
 * | hosted link       | HOSTED#<token>                       | HOSTED       |                |                           |  (hosted page token → invoice; put with the invoice)
 * | merchant_ref      | MERCHANTREF#<companyId>#<ref>        | MERCHANTREF  |                |                           |
 * | payment           | PAYMENT#<companyId>#<paymentId>      | PAYMENT      | PAYMENTS#<co>  | <YYYY-MM-DD>#<ulid>       |
 * | day totals        | TOTALS#<companyId>                   | <YYYY-MM-DD>#<shard> |        |                           |  (docs/data-design.md "Period totals"; period-totals.ts)
 * | tax day row       | TAXDAY#<companyId>                   | <YYYY-MM-DD>#<shard> |        |                           |  (docs/data-design.md "Tax report"; tax-rows.ts)
 * | aging row         | AGING#<companyId>                    | <due YYYY-MM-DD>#<shard> |    |                           |  (receivables, see receivables.ts)
 * | client aging row  | AGINGCLIENT#<companyId>              | <clientId 12 digits>#<due>#<shard> |  |                 |
 * | open invoice      | OPENINVOICES#<companyId>             | <due YYYY-MM-DD>#<referenceCode> |  |                   |  (exists while the invoice is open)
 * | ledger line       | LEDGER#<companyId>#<clientId>        | <date>#<recorded at>#<ULID, or type#id> |  |            |  (a client statement's line)
 * | idempotency rec.  | IDEMPOTENCY#<co>#<route>#<sha256>    | IDEMPOTENCY  |                |                           |
 * | webhook endpoint  | WEBHOOK#<companyId>                  | ENDPOINT     |                |                           |
 * | webhook event     | EVENT#<eventId>                      | EVENT        | WEBHOOKS#<co>  | <eventId> (evt_ + ULID)   |
 * | webhook resend    | EVENT#<eventId>                      | RESEND#<ulid>|                |                           |
 * | mail job          | MAILJOB#<jobId>                      | MAILJOB      | MAIL#<co>      | <jobId> (mail_ + ULID)    |  (one send of an invoice: the mail outbox)
 * | hosted receipt    | HOSTED#<token>                       | RECEIPT#<payment's ULID>[#REVERSED] |  |                 |  (a payment as the hosted page lists it)
 * | paystack conn.    | ACCOUNT#<companyId>                  | PAYSTACK     |                |                           |  (sealed secret key, hook id, fee settings)
 * | paystack hook     | PAYSTACKHOOK#<hookId>                | PAYSTACKHOOK |                |                           |  (webhook URL's id → account)
 * | checkout attempt  | CHECKOUT#<reference>                 | CHECKOUT     |                |                           |  (a reference issued to Paystack; the recorded payment)
 * | provider event    | PSEVENT#<eventId>                    | PSEVENT      | PSEVENTS#<co>  | <eventId> (pse_ + ULID)   |  (a signed Paystack webhook, as received)
 * | refund job        | REFUNDJOB#<jobId>                    | REFUNDJOB    | REFUNDS#<co>   | <jobId> (rfj_ + ULID)     |  (money to give back through Paystack)
 * | saved card        | CARD#<companyId>#<cardToken>         | CARD         | CARDS#<co>#<clientId> | <created_at>#<cardToken> |
 * | card signature    | CARDSIG#<co>#<clientId>#<signature>  | CARDSIG      |                |                           |  (one saved card per card and client)
 * | recurring series  | RECURRING#<seriesId>                 | SERIES       | RECURRINGS#<co> | <seriesId> (rec_ + ULID) |  (+ GSI2 while active: recurring.ts)
 * | series period     | RECURRING#<seriesId>                 | PERIOD#<n, 6 digits> |        |                           |  (its period's invoice was created: once)
 * | virtual account   | VACCOUNT#<co>#<clientId>             | VACCOUNT     |                |                           |  (the client's dedicated account at Paystack)
 * | va customer       | VACUSTOMER#<co>#<customerCode>       | VACUSTOMER   |                |                           |  (Paystack customer → client: whose transfer)
 * | client credit     | CREDIT#<co>#<clientId>               | BALANCE      |                |                           |  (the client's credit balance, versioned)
 * | credit line       | CREDIT#<co>#<clientId>               | LINE#<ULID>  |                |                           |  (credit received, applied or refunded)
 * | credit listing    | CREDITS#<co>                         | <clientId 12 digits> |        |                           |  (exists while the client holds credit: aging's unapplied credit)
 * | transfer          | TRANSFER#<co>#<reference>            | TRANSFER     |                |                           |  (a dedicated-account transfer: once per reference)
 * | credit note       | INVOICE#<referenceCode>              | CREDITNOTE#<number> |         |                           |  (a credit note of the invoice: credit-notes.ts)
 * | hosted credit note| HOSTED#<token>                       | CREDITNOTE#<number> |         |                           |  (its line on the invoice's hosted page)
 *
 * GSI1 is the listing index, GSI2 the wake index (table.ts). GSI2 is sparse, read by the wake sweep: an item carries
 * GSI2PK = OPEN#<shard 0..15> (a hash of its id) and GSI2SK = <wake date YYYY-MM-DD>#<id>[#<marker>] while something
 * may still be due for it; what it wakes is its own key's (store/wake-index.ts): invoice headers, while open and
 * `invoice.overdue` or a reminder may still be due (`wakeIndexKeys`), and active recurring series, on the issue date of
 * their next period (store/recurring.ts).
 */
export interface Key {
  PK: string;
  SK: string;
}

/** Sort-key prefix of an account's api-key items (Query with begins_with lists them). */
export const ACCOUNT_API_KEY_PREFIX = 'APIKEY#';
/** Partition-key prefix of the api-key items used for authentication. */
export const API_KEY_PREFIX = 'APIKEY#';

export type SequenceName = 'invoice' | 'client' | 'payment';

/** The documents numbered without gaps, each kind on its own counter (docs/tax.md "Numbers"). */
export type DocumentKind = 'invoice' | 'credit_note';

const INVOICE_PREFIX = 'INVOICE#';
const RECURRING_PREFIX = 'RECURRING#';

/** The series id a recurring series' partition key names. */
export const recurringIdOfKey = (seriesPk: string): string => seriesPk.slice(RECURRING_PREFIX.length);

/** The reference code an invoice item's partition key names. */
export const referenceCodeOf = (invoicePk: string): string => invoicePk.slice(INVOICE_PREFIX.length);

export const keys = {
  account: (companyId: number): Key => ({ PK: `ACCOUNT#${companyId}`, SK: 'ACCOUNT' }),
  /** The merchant's logo: beside the account item, never read with it (authentication reads the account). */
  accountLogo: (companyId: number): Key => ({ PK: `ACCOUNT#${companyId}`, SK: 'LOGO' }),
  sequence: (companyId: number, name: SequenceName): Key => ({ PK: `ACCOUNT#${companyId}`, SK: `SEQ#${name}` }),
  accountSequence: (): Key => ({ PK: 'SEQUENCE', SK: 'ACCOUNT' }),
  documentCounter: (companyId: number, kind: DocumentKind): Key => ({
    PK: `ACCOUNT#${companyId}`,
    SK: `NUMBER#${kind}`,
  }),
  apiKey: (secretHash: string): Key => ({ PK: `APIKEY#${secretHash}`, SK: 'APIKEY' }),
  apiKeyById: (keyId: string): Key => ({ PK: `APIKEYID#${keyId}`, SK: 'APIKEYID' }),
  accountApiKey: (companyId: number, keyId: string): Key => ({
    PK: `ACCOUNT#${companyId}`,
    SK: `${ACCOUNT_API_KEY_PREFIX}${keyId}`,
  }),
  migration: (name: string): Key => ({ PK: `MIGRATION#${name}`, SK: 'MIGRATION' }),
  client: (companyId: number, clientId: number): Key => ({ PK: `CLIENT#${companyId}#${clientId}`, SK: 'CLIENT' }),
  clientEmail: (companyId: number, email: string): Key => ({
    PK: `CLIENTEMAIL#${companyId}#${email.toLowerCase()}`,
    SK: 'CLIENTEMAIL',
  }),
  invoiceHeader: (referenceCode: string): Key => ({ PK: `${INVOICE_PREFIX}${referenceCode}`, SK: 'HEADER' }),
  invoiceBody: (referenceCode: string): Key => ({ PK: `${INVOICE_PREFIX}${referenceCode}`, SK: 'BODY' }),
  hostedLink: (token: string): Key => ({ PK: `HOSTED#${token}`, SK: 'HOSTED' }),
  merchantRef: (companyId: number, merchantRef: string): Key => ({
    PK: `MERCHANTREF#${companyId}#${merchantRef}`,
    SK: 'MERCHANTREF',
  }),
  payment: (companyId: number, paymentId: number): Key => ({ PK: `PAYMENT#${companyId}#${paymentId}`, SK: 'PAYMENT' }),
  dayTotals: (companyId: number, isoDate: string, shard: number): Key => ({
    PK: dayTotalsKeys.partition(companyId),
    SK: `${isoDate}#${shard}`,
  }),
  taxDay: (companyId: number, isoDate: string, shard: number): Key => ({
    PK: taxDayKeys.partition(companyId),
    SK: `${isoDate}#${shard}`,
  }),
  agingRow: (companyId: number, isoDueDate: string, shard: number): Key => ({
    PK: agingKeys.partition(companyId),
    SK: `${isoDueDate}#${shard}`,
  }),
  clientAgingRow: (companyId: number, clientId: number, isoDueDate: string, shard: number): Key => ({
    PK: clientAgingKeys.partition(companyId),
    SK: `${clientAgingKeys.client(clientId)}${isoDueDate}#${shard}`,
  }),
  openInvoice: (companyId: number, isoDueDate: string, referenceCode: string): Key => ({
    PK: openInvoiceKeys.partition(companyId),
    SK: `${isoDueDate}#${referenceCode}`,
  }),
  ledgerLine: (companyId: number, clientId: number, sortKey: string): Key => ({
    PK: ledgerKeys.partition(companyId, clientId),
    SK: sortKey,
  }),
  idempotency: (companyId: number, route: string, keyHash: string): Key => ({
    PK: `IDEMPOTENCY#${companyId}#${route}#${keyHash}`,
    SK: 'IDEMPOTENCY',
  }),
  webhookEndpoint: (companyId: number): Key => ({ PK: `WEBHOOK#${companyId}`, SK: 'ENDPOINT' }),
  webhookEvent: (eventId: string): Key => ({ PK: `EVENT#${eventId}`, SK: 'EVENT' }),
  webhookResend: (eventId: string, requestUlid: string): Key => ({
    PK: `EVENT#${eventId}`,
    SK: `RESEND#${requestUlid}`,
  }),
  mailJob: (jobId: string): Key => ({ PK: `MAILJOB#${jobId}`, SK: 'MAILJOB' }),
  recurringSeries: (seriesId: string): Key => ({ PK: `${RECURRING_PREFIX}${seriesId}`, SK: 'SERIES' }),
  recurringPeriod: (seriesId: string, period: number): Key => ({
    PK: `${RECURRING_PREFIX}${seriesId}`,
    SK: `PERIOD#${String(period).padStart(6, '0')}`,
  }),
  ...onlinePaymentKeys(),
};

/** The keys of getting paid online (docs/data-design.md "Getting paid online"). */
function onlinePaymentKeys() {
  return {
    hostedReceipt: (token: string, paymentUlid: string): Key => ({
      PK: `HOSTED#${token}`,
      SK: `${HOSTED_RECEIPT_PREFIX}${paymentUlid}`,
    }),
    hostedReceiptReversal: (token: string, paymentUlid: string): Key => ({
      PK: `HOSTED#${token}`,
      SK: `${HOSTED_RECEIPT_PREFIX}${paymentUlid}${RECEIPT_REVERSAL_SUFFIX}`,
    }),
    paystackConnection: (companyId: number): Key => ({ PK: `ACCOUNT#${companyId}`, SK: 'PAYSTACK' }),
    paystackHook: (hookId: string): Key => ({ PK: `PAYSTACKHOOK#${hookId}`, SK: 'PAYSTACKHOOK' }),
    checkoutAttempt: (reference: string): Key => ({ PK: `CHECKOUT#${reference}`, SK: 'CHECKOUT' }),
    providerEvent: (eventId: string): Key => ({ PK: `PSEVENT#${eventId}`, SK: 'PSEVENT' }),
    refundJob: (jobId: string): Key => ({ PK: `REFUNDJOB#${jobId}`, SK: 'REFUNDJOB' }),
    cardCollection: (referenceCode: string): Key => ({ PK: `COLLECT#${referenceCode}`, SK: 'COLLECT' }),
    chargeJob: (jobId: string): Key => ({ PK: `CHARGEJOB#${jobId}`, SK: 'CHARGEJOB' }),
    savedCard: (companyId: number, cardToken: string): Key => ({ PK: `CARD#${companyId}#${cardToken}`, SK: 'CARD' }),
    cardSignature: (companyId: number, clientId: number, signature: string): Key => ({
      PK: `CARDSIG#${companyId}#${clientId}#${signature}`,
      SK: 'CARDSIG',
    }),
    ...bankTransferKeys(),
  };
}

/** The keys of bank transfers and client credit (docs/bank-transfers.md). */
function bankTransferKeys() {
  return {
    virtualAccount: (companyId: number, clientId: number): Key => ({
      PK: `VACCOUNT#${companyId}#${clientId}`,
      SK: 'VACCOUNT',
    }),
    virtualAccountCustomer: (companyId: number, customerCode: string): Key => ({
      PK: `VACUSTOMER#${companyId}#${customerCode}`,
      SK: 'VACUSTOMER',
    }),
    clientCredit: (companyId: number, clientId: number): Key => ({
      PK: creditKeys.partition(companyId, clientId),
      SK: 'BALANCE',
    }),
    creditListing: (companyId: number, clientId: number): Key => ({
      PK: creditKeys.listing(companyId),
      SK: String(clientId).padStart(12, '0'),
    }),
    creditLine: (companyId: number, clientId: number, ulid: string): Key => ({
      PK: creditKeys.partition(companyId, clientId),
      SK: `${creditKeys.LINE_PREFIX}${ulid}`,
    }),
    transfer: (companyId: number, reference: string): Key => ({
      PK: `TRANSFER#${companyId}#${reference}`,
      SK: 'TRANSFER',
    }),
    creditNote: (referenceCode: string, number: string): Key => ({
      PK: `${INVOICE_PREFIX}${referenceCode}`,
      SK: `${CREDIT_NOTE_PREFIX}${number}`,
    }),
    hostedCreditNote: (token: string, number: string): Key => ({
      PK: `HOSTED#${token}`,
      SK: `${CREDIT_NOTE_PREFIX}${number}`,
    }),
  };
}

/** The sort-key prefix of a credit note in its invoice's partition and in its hosted page's: one Query reads them. */
export const CREDIT_NOTE_PREFIX = 'CREDITNOTE#';

/** A client's credit: its balance and its lines share one partition; the lines sort by ULID (recording order). */
export const creditKeys = {
  partition: (companyId: number, clientId: number): string => `CREDIT#${companyId}#${clientId}`,
  LINE_PREFIX: 'LINE#',
  /** The account's clients holding credit, one item each: one Query lists them (aging's unapplied credit). */
  listing: (companyId: number): string => `CREDITS#${companyId}`,
};

/** A hosted page's receipts sort after its link (`HOSTED`) in its partition: one Query reads both. */
export const HOSTED_RECEIPT_PREFIX = 'RECEIPT#';
/** The item that marks a receipt's payment reversed (put by the reversal; the receipt itself is never rewritten). */
export const RECEIPT_REVERSAL_SUFFIX = '#REVERSED';

/** GSI1 keys of a provider event: an account's received Paystack events are one Query, newest first. */
export const providerEventIndexKeys = {
  partition: (companyId: number): string => `PSEVENTS#${companyId}`,
  sort: (eventId: string): string => eventId,
};

/** GSI1 keys of a refund job: an account's refunds are one Query, newest first. */
export const refundJobIndexKeys = {
  partition: (companyId: number): string => `REFUNDS#${companyId}`,
  sort: (jobId: string): string => jobId,
};

/** GSI1 keys of a charge job of automatic collection: an account's charge jobs are one Query, newest last. */
export const chargeJobIndexKeys = {
  partition: (companyId: number): string => `CHARGES#${companyId}`,
  sort: (createdAt: string, jobId: string): string => `${createdAt}#${jobId}`,
};

/** GSI1 keys of a saved card: a client's cards are one Query, oldest first. */
export const savedCardIndexKeys = {
  partition: (companyId: number, clientId: number): string => `CARDS#${companyId}#${clientId}`,
  sort: (createdAt: string, cardToken: string): string => `${createdAt}#${cardToken}`,
};

/** GSI1 keys of a recurring series: an account's series are one Query, newest first (series ids sort by time). */
export const recurringIndexKeys = {
  partition: (companyId: number): string => `RECURRINGS#${companyId}`,
  sort: (seriesId: string): string => seriesId,
};

/** GSI1 keys of a mail job: an account's recent sends are one Query, newest first (job ids sort by time). */
export const mailIndexKeys = {
  partition: (companyId: number): string => `MAIL#${companyId}`,
  sort: (jobId: string): string => jobId,
};

/** An account's day totals: one partition, sorted by day, so a range's rows are one Query. */
export const dayTotalsKeys = {
  partition: (companyId: number): string => `TOTALS#${companyId}`,
  /** Inclusive bounds for a BETWEEN over calendar dates (YYYY-MM-DD), every shard of each day. */
  rangeStart: (isoDate: string): string => `${isoDate}#`,
  rangeEnd: (isoDate: string): string => `${isoDate}#~`,
};

/** An account's tax day rows: one partition, by day, so a period's report is one Query (docs/data-design.md "Tax report"). */
export const taxDayKeys = {
  partition: (companyId: number): string => `TAXDAY#${companyId}`,
  rangeStart: (isoDate: string): string => `${isoDate}#`,
  rangeEnd: (isoDate: string): string => `${isoDate}#~`,
};

/** An account's aging rows: one partition, by due date, so the totals are one Query (docs/data-design.md "Receivables"). */
export const agingKeys = {
  partition: (companyId: number): string => `AGING#${companyId}`,
};

/** An account's client aging rows: one partition, by client then due date; one client's rows share a prefix. */
export const clientAgingKeys = {
  partition: (companyId: number): string => `AGINGCLIENT#${companyId}`,
  /** The sort-key prefix of one client's rows. */
  client: (clientId: number): string => `${String(clientId).padStart(12, '0')}#`,
};

/** An account's open invoices, by due date: a range of due dates is a range of sort keys. */
export const openInvoiceKeys = {
  partition: (companyId: number): string => `OPENINVOICES#${companyId}`,
  /** Inclusive bounds over due dates (YYYY-MM-DD). */
  rangeStart: (isoDate: string): string => `${isoDate}#`,
  rangeEnd: (isoDate: string): string => `${isoDate}#~`,
};

/**
 * A client's ledger: lines by date, then by when they were recorded. The last part tells same-second lines apart:
 * a live write's is a per-process monotonic ULID (recording order, also within a millisecond); a migrated line's is
 * its type and id, deterministic, so that running the migration again rewrites the same keys.
 */
export const ledgerKeys = {
  partition: (companyId: number, clientId: number): string => `LEDGER#${companyId}#${clientId}`,
  /** `recordedAt` is `YYYY-MM-DD HH:MM:SS` (UTC). */
  sort: (isoDate: string, recordedAt: string, suffix: string): string =>
    `${isoDate}#${recordedAt.replace(' ', 'T')}#${suffix}`,
  /** The deterministic suffix of a migrated line: its type and its id, zero-padded so that ids sort as numbers. */
  migrated: (type: string, id: number): string => `${type}#${String(id).padStart(12, '0')}`,
  /** Every line dated `isoDate` or later sorts at or after this. */
  from: (isoDate: string): string => `${isoDate}#`,
};

/** GSI1 keys of a webhook event: an account's recent deliveries are one Query, newest first (event ids sort by time). */
export const deliveryIndexKeys = {
  partition: (companyId: number): string => `WEBHOOKS#${companyId}`,
  sort: (eventId: string): string => eventId,
};

/** GSI1 keys of a payment: history is one Query on GSI1PK with a range on GSI1SK, newest first. */
export const paymentIndexKeys = {
  partition: (companyId: number): string => `PAYMENTS#${companyId}`,
  /** `isoDate` is YYYY-MM-DD of transaction_date; the ULID orders same-day payments by recording time. */
  sort: (isoDate: string, ulid: string): string => `${isoDate}#${ulid}`,
  /** Inclusive bounds for a BETWEEN over calendar dates. */
  rangeStart: (isoDate: string): string => `${isoDate}#`,
  rangeEnd: (isoDate: string): string => `${isoDate}#~`,
};

/** GSI1 keys of an invoice header: invoice history is one Query over a range of `created_at` (UTC), newest first. */
export const invoiceIndexKeys = {
  partition: (companyId: number): string => `INVOICES#${companyId}`,
  /** `createdAt` is `YYYY-MM-DD HH:MM:SS` (UTC); the reference code orders invoices of the same second. */
  sort: (createdAt: string, referenceCode: string): string => `${createdAt}#${referenceCode}`,
  /** Inclusive bounds for a BETWEEN over `created_at` timestamps. */
  rangeStart: (createdAt: string): string => `${createdAt}#`,
  rangeEnd: (createdAt: string): string => `${createdAt}#~`,
};

/** GSI1 keys of a live client: an account's clients are one Query, newest first. */
export const clientIndexKeys = {
  partition: (companyId: number): string => `CLIENTS#${companyId}`,
  sort: (createdAt: string, clientId: number): string => `${createdAt}#${String(clientId).padStart(12, '0')}`,
};

/** Partitions of the wake index (GSI2): spreads one wake date's items over 16 partitions; the sweep reads each. */
export const WAKE_INDEX_SHARDS = 16;

/**
 * GSI2 keys of an open invoice header that may still need something (docs/data-design.md "Wake index"): its
 * `invoice.overdue`, or a reminder of its account's schedule. The sort key starts with the next calendar date on which
 * something may be due (its "wake date"); the sweep Queries each shard for wake dates up to the latest today anywhere,
 * decides, and writes the next wake date (or removes the keys: nothing more can be due). A payment that settles the
 * invoice and its deletion remove them; its creation, a reversal that re-opens it, a resumption of its reminders and a
 * new schedule put them back with `wakeNow`, so that the sweep decides with the current state and schedule.
 */
export const wakeIndexKeys = {
  /** FNV-1a of the reference code, modulo the shard count. */
  shard(referenceCode: string): number {
    let hash = 0x811c9dc5;
    for (let i = 0; i < referenceCode.length; i++) hash = Math.imul(hash ^ referenceCode.charCodeAt(i), 0x01000193);
    return (hash >>> 0) % WAKE_INDEX_SHARDS;
  },
  partition: (shard: number): string => `OPEN#${shard}`,
  /** `isoWakeDate` is YYYY-MM-DD of the wake date (before reminders: the due date, which is never later). */
  sort: (isoWakeDate: string, referenceCode: string): string => `${isoWakeDate}#${referenceCode}`,
  /** Inclusive upper bound: every wake date up to `isoDate` sorts at or below it. */
  through: (isoDate: string): string => `${isoDate}#~`,
  /** The GSI2 attributes of an open invoice header waking on `isoWakeDate` (YYYY-MM-DD). */
  attributes: (referenceCode: string, isoWakeDate: string): { GSI2PK: string; GSI2SK: string } => ({
    GSI2PK: wakeIndexKeys.partition(wakeIndexKeys.shard(referenceCode)),
    GSI2SK: wakeIndexKeys.sort(isoWakeDate, referenceCode),
  }),
  /**
   * The GSI2 attributes that wake an invoice at the next sweep (`isoToday`: today's UTC date, never after the latest
   * today anywhere). `marker` makes the key differ from every key the sweep writes and from an earlier wake's, so that
   * a sweep that read the invoice before this wake fails its condition on the key it read and leaves it to the next.
   */
  wakeNow: (referenceCode: string, isoToday: string, marker: string): { GSI2PK: string; GSI2SK: string } => ({
    GSI2PK: wakeIndexKeys.partition(wakeIndexKeys.shard(referenceCode)),
    GSI2SK: `${wakeIndexKeys.sort(isoToday, referenceCode)}#${marker}`,
  }),
};
