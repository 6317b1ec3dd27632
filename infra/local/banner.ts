/**
 * What `npm start` prints once the service is ready: the base URL, the demo key, a line that exports them as
 * BASE, KEY and REF (the variables every example in the docs uses) and ready-to-paste curl commands using them.
 */

export interface BannerInput {
  baseUrl: string;
  companyId: number;
  secretKey: string;
  dynamodbEndpoint: string;
  tableName: string;
  dataDir: string;
  /** Reference code of the demo invoice seeded on first start, used by the payment example. */
  demoReferenceCode?: string;
  /** The demo account's time zone, which decides "today" for payment dates. */
  timeZone?: string;
  now?: Date;
  /** The local SES server (its web inbox), where each message is also kept, and the sender (undefined: sending off). */
  mail?: { inboxUrl: string; mailDir: string; from: string | undefined };
  /** Paystack: the local server the service uses (and the demo's webhook URL on it), or the one PAYSTACK_BASE_URL names. */
  paystack?: { url: string; external: boolean; webhookUrl?: string };
}

/** Where online payment goes (docs/getting-paid-online.md "Locally"), and how to pay the demo invoice online. */
export function paystackLines(paystack: NonNullable<BannerInput['paystack']>, baseUrl: string): string[] {
  if (paystack.external)
    return [
      `Paystack: ${paystack.url} (PAYSTACK_BASE_URL); connect an account with account:update --paystack-secret-key`,
    ];
  return [
    `Paystack: a local Paystack-compatible server at ${paystack.url} (its state and transfers: ${paystack.url}/_local/)`,
    `  the demo account is connected to it; its webhooks go to ${paystack.webhookUrl ?? baseUrl}`,
    '  open the demo invoice\'s hosted_url and press "Pay" (GET $BASE/invoices/$REF shows it)',
  ];
}

/** Where sent invoice e-mails are read (docs/running-locally.md "E-mail"), and a send of the demo invoice. */
export function mailLines(mail: NonNullable<BannerInput['mail']>, demoReferenceCode?: string): string[] {
  if (!mail.from)
    return [`Invoice e-mail: off (MAIL_FROM is empty), sending answers 501. Local SES server: ${mail.inboxUrl}`];
  const path = `/invoices/${demoReferenceCode ? '$REF' : 'REFERENCE_CODE'}/send`;
  return [
    `Invoice e-mail: read sent mail in a browser at ${mail.inboxUrl} (local SES server; from ${mail.from})`,
    `  every message is also kept as a .eml file in ${mail.mailDir}`,
    '',
    `# E-mail ${demoReferenceCode ? 'the demo invoice' : 'an invoice'} to its client (try "to":"bounce@simulator.amazonses.com"):`,
    curl(path, { message: 'Thank you for your business.' }),
  ];
}

/** `MM/DD/YYYY` of the calendar date `days` after today in `timeZone`. */
export function usDate(now: Date, timeZone: string, days = 0): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const date = new Date(Date.UTC(get('year'), get('month') - 1, get('day') + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

/** A POST of `body` to `$BASE<path>` with `$KEY`; `"$REF"` in a string of the body becomes the shell variable. */
function curl(path: string, body: unknown): string {
  const json = JSON.stringify(body).replaceAll('"$REF"', `"'"$REF"'"`);
  return [
    `curl -sS -X POST "$BASE${path}" \\`,
    `  -H "Authorization: Bearer $KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${json}'`,
  ].join('\n');
}

/** The line to paste first: the shell variables the examples below and the docs use. */
export function exportLine(baseUrl: string, secretKey: string, demoReferenceCode?: string): string {
  return `export BASE=${baseUrl} KEY=${secretKey}${demoReferenceCode ? ` REF=${demoReferenceCode}` : ''}`;
}

/** The body of the demo invoice (also what the first example sends): 2 × 50,000.00, room for many example payments. */
export function demoInvoiceBody(timeZone = 'Africa/Lagos', now = new Date()) {
  return {
    client: {
      first_name: 'Ada',
      last_name: 'Obi',
      email: 'ada@example.com',
      phone: '+2348012345678',
      company_name: 'Obi Ventures',
    },
    due_date: usDate(now, timeZone, 30),
    fee_bearer: 'client',
    items: [{ item: 'Consulting', description: 'Two days of advisory work', unit_cost: '50,000.00', quantity: '2' }],
  };
}

/**
 * The curl examples of the banner (add an invoice, pay the demo invoice, list today's payments), with `$BASE` and
 * `$KEY`. They work when pasted in order after the export line: the payment goes to the demo invoice seeded on first
 * start (`$REF`), 1,000.00 at a time.
 */
export function curlExamples(timeZone = 'Africa/Lagos', now = new Date(), demoReferenceCode?: string): string[] {
  const invoice = demoInvoiceBody(timeZone, now);
  const payment = {
    reference_code: demoReferenceCode ? '$REF' : 'REFERENCE_CODE_FROM_INVOICE',
    date: usDate(now, timeZone),
    amount: '1000',
    channel: 'BankTransfer',
  };
  const paymentTitle = demoReferenceCode
    ? `# Record a payment on the demo invoice $REF (${demoReferenceCode}; any invoice's data.reference_code works):`
    : "# Record a payment (put the invoice's data.reference_code in place of the placeholder):";
  return [
    `# Add an invoice for a new client:\n${curl('/invoices', invoice)}`,
    `${paymentTitle}\n${curl('/payments', payment)}`,
    `# List today's payments:\n${curl('/payments/history', { period: 'today' })}`,
  ];
}

/** The full ready message. Its first line starts with the base URL, which scripts may wait for. */
export function readyBanner(input: BannerInput): string {
  return [
    `Invoicing API listening on ${input.baseUrl}`,
    `DynamoDB Local: ${input.dynamodbEndpoint} (table ${input.tableName}, data in ${input.dataDir})`,
    `Demo account: company_id ${input.companyId}`,
    `Demo secret key: ${input.secretKey}`,
    `API reference: ${input.baseUrl}/docs (OpenAPI document: ${input.baseUrl}/openapi.json)`,
    '',
    '# Paste this line first: these examples and the docs (README, docs/api.md) use $BASE, $KEY and $REF.',
    exportLine(input.baseUrl, input.secretKey, input.demoReferenceCode),
    '',
    ...curlExamples(input.timeZone, input.now, input.demoReferenceCode).flatMap((example) => [example, '']),
    ...(input.mail ? [...mailLines(input.mail, input.demoReferenceCode), ''] : []),
    ...(input.paystack ? [...paystackLines(input.paystack, input.baseUrl), ''] : []),
    'Press Ctrl-C to stop.',
  ].join('\n');
}
