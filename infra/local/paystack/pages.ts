/**
 * The local Paystack server's HTML (docs/paystack-local.md "Checkout", "The /_local/ page"): the checkout page a
 * transaction's `authorization_url` opens, and the `/_local/` page (simulate a transfer to a dedicated account; recent
 * transactions and webhook deliveries). Plain forms, no script.
 */
import type { CheckoutChoice } from './charges.ts';
import { escapeHtml } from './http.ts';
import { BANKS, customerOf } from './shapes.ts';
import type { Integration, Transaction } from './state.ts';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem}.amount{font-size:2rem;font-weight:600;margin:.5rem 0}.note{color:#5a5a5a}
.error{background:#fde8e8;border:1px solid #e0a0a0;padding:.6rem;border-radius:.4rem}
form.choices button{display:block;width:100%;margin:.5rem 0;padding:.8rem;font-size:1rem;border-radius:.4rem;
border:1px solid #0a7b55;background:#0ba36f;color:#fff;cursor:pointer}form.choices button.quiet{background:#fff;color:#333;
border-color:#999}table{border-collapse:collapse;width:100%;font-size:.85rem}td,th{border-bottom:1px solid #ddd;
padding:.3rem;text-align:left}label{display:block;margin:.4rem 0}input{padding:.3rem;width:100%;box-sizing:border-box}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** An amount in the smallest unit, shown in the main unit: `NGN 1,015.23`. */
export function formatAmount(amount: number, currency: string): string {
  const major = Math.floor(amount / 100).toLocaleString('en-US');
  return `${currency} ${major}.${String(amount % 100).padStart(2, '0')}`;
}

const BUTTONS: { choice: CheckoutChoice; label: string; channels: string[]; quiet?: boolean }[] = [
  { choice: 'success_card', label: 'Pay with success card (Visa •••• 4081)', channels: ['card'] },
  { choice: 'declining_card', label: 'Pay with declining card (Visa •••• 5408)', channels: ['card'] },
  { choice: 'bank_transfer', label: 'Pay by bank transfer', channels: ['bank_transfer', 'bank'] },
  { choice: 'ussd', label: 'Pay by USSD', channels: ['ussd'] },
  { choice: 'abandon', label: 'Abandon (cancel payment)', channels: [], quiet: true },
];

export function checkoutPage(integration: Integration, tx: Transaction, declined: boolean): string {
  const email = customerOf(integration, tx.customer_id).email;
  const buttons = BUTTONS.filter(
    (b) => b.channels.length === 0 || !tx.channels || b.channels.some((c) => tx.channels!.includes(c)),
  )
    .map(
      (b) =>
        `<button type="submit" name="choice" value="${b.choice}"${b.quiet ? ' class="quiet"' : ''}>${b.label}</button>`,
    )
    .join('\n');
  const error = declined ? '<p class="error" role="alert">Declined. Try another card, or another way to pay.</p>' : '';
  return page(
    'Local Paystack checkout',
    `<h1>${escapeHtml(integration.business_name)}</h1>
<p class="note">${escapeHtml(email)}</p>
<p class="amount">Pay ${formatAmount(tx.amount, tx.currency)}</p>
${error}
<form class="choices" method="post">
${buttons}
</form>
<p class="note">Local Paystack-compatible server: no money moves. Reference ${escapeHtml(tx.reference)}.</p>`,
  );
}

/** A transaction's checkout once it is over (paid, or paid and refunded), or with no callback URL to return to. */
export function checkoutOverPage(tx: Transaction, returnUrl: string | null): string {
  const link = returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Return to the merchant</a></p>` : '';
  const said =
    tx.status === 'success' || tx.status === 'reversed'
      ? `Payment of ${formatAmount(tx.amount, tx.currency)} received.`
      : 'The payment was not completed.';
  return page(
    'Local Paystack checkout',
    `<h1>${said}</h1><p class="note">Reference ${escapeHtml(tx.reference)}</p>${link}`,
  );
}

export function notFoundPage(what: string): string {
  return page('Not found', `<h1>${escapeHtml(what)}</h1>`);
}

function rows(cells: string[][]): string {
  return cells.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
}

const keyEnd = (integration: Integration) => `…${integration.secret_key.slice(-4)}`;

function accountRows(integrations: Integration[]): string {
  return rows(
    integrations.flatMap((integration) =>
      integration.dedicated_accounts.map((account) => [
        account.account_number,
        BANKS[account.bank_slug]?.name ?? account.bank_slug,
        account.account_name,
        customerOf(integration, account.customer_id).email,
        keyEnd(integration),
      ]),
    ),
  );
}

function recentTransactionRows(integrations: Integration[]): string {
  const all = integrations.flatMap((integration) => integration.transactions.map((tx) => ({ integration, tx })));
  all.sort((a, b) => b.tx.created_at.localeCompare(a.tx.created_at));
  return rows(
    all
      .slice(0, 20)
      .map(({ integration, tx }) => [
        tx.created_at,
        tx.reference,
        tx.status,
        tx.channel,
        formatAmount(tx.amount, tx.currency),
        keyEnd(integration),
      ]),
  );
}

function recentDeliveryRows(integrations: Integration[]): string {
  const all = integrations.flatMap((integration) => integration.deliveries.map((d) => ({ integration, d })));
  all.sort((a, b) => b.d.id - a.d.id);
  return rows(
    all
      .slice(0, 20)
      .map(({ integration, d }) => [
        d.created_at,
        d.event,
        d.reference ?? '',
        d.status,
        String(d.attempts),
        d.last_error ?? String(d.last_status ?? ''),
        keyEnd(integration),
      ]),
  );
}

const TRANSFER_FORM = `<form method="post" action="/_local/transfers">
<label>Account number <input name="account_number" required inputmode="numeric"></label>
<label>Amount in kobo <input name="amount" required inputmode="numeric"></label>
<label>Sender name <input name="sender_name" value="ADA OBI"></label>
<label>Sender bank <input name="sender_bank" value="Access Bank"></label>
<label>Sender account number <input name="sender_account_number" value="0123456789" inputmode="numeric"></label>
<label>Narration <input name="narration"></label>
<p><button type="submit">Send the transfer</button></p></form>`;

/** The `/_local/` page: a transfer form, the dedicated accounts, and what happened lately. */
export function localPage(integrations: Integration[], notice: string | null): string {
  const said = notice ? `<p class="note" role="status">${escapeHtml(notice)}</p>` : '';
  return page(
    'Local Paystack server',
    `<h1>Local Paystack server</h1>${said}
<h2>Simulate a bank transfer to a dedicated account</h2>${TRANSFER_FORM}
<h2>Dedicated accounts</h2><table><tr><th>Number</th><th>Bank</th><th>Name</th><th>Customer</th><th>Key</th></tr>
${accountRows(integrations)}</table>
<h2>Recent transactions</h2><table><tr><th>Created</th><th>Reference</th><th>Status</th><th>Channel</th><th>Amount</th>
<th>Key</th></tr>${recentTransactionRows(integrations)}</table>
<h2>Recent webhook deliveries</h2><table><tr><th>Created</th><th>Event</th><th>Reference</th><th>Status</th>
<th>Attempts</th><th>Last answer</th><th>Key</th></tr>${recentDeliveryRows(integrations)}</table>`,
  );
}
