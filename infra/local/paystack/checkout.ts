/**
 * The checkout page (docs/paystack-local.md "Checkout"): `GET /checkout/:access_code` shows the amount, the
 * customer's email and a button per way to pay; `POST` does the choice and answers 303 — back to the callback URL with
 * `?trxref=REF&reference=REF` after a payment or an abandon (or `metadata.cancel_action` for an abandon), back to the
 * page with "Declined" after the declining card, as Paystack's checkout lets the customer try again.
 */
import { CHECKOUT_CHOICES, type CheckoutChoice, payAtCheckout } from './charges.ts';
import type { Engine } from './engine.ts';
import { type Exchange, redirect, sendHtml, textField } from './http.ts';
import { checkoutOverPage, checkoutPage, notFoundPage } from './pages.ts';
import type { Integration, StateFile, Transaction } from './state.ts';

export const CHECKOUT_PATH = /^\/checkout\/([A-Za-z0-9]+)$/;

function byAccessCode(store: StateFile, accessCode: string): { integration: Integration; tx: Transaction } | undefined {
  for (const integration of store.integrations()) {
    const tx = integration.transactions.find((t) => t.access_code === accessCode);
    if (tx) return { integration, tx };
  }
  return undefined;
}

/** The callback URL with Paystack's two query parameters, or null when neither the transaction nor the integration has one. */
export function callbackWithReference(base: string | null, reference: string): string | null {
  if (!base) return null;
  const url = new URL(base);
  url.searchParams.append('trxref', reference);
  url.searchParams.append('reference', reference);
  return url.toString();
}

function cancelAction(tx: Transaction): string | null {
  const metadata = tx.metadata as { cancel_action?: unknown } | null;
  const action = typeof metadata === 'object' && metadata !== null ? metadata.cancel_action : undefined;
  return typeof action === 'string' && URL.canParse(action) ? action : null;
}

export function handleCheckout(engine: Engine, ex: Exchange): void {
  const accessCode = CHECKOUT_PATH.exec(ex.url.pathname)?.[1];
  const found = accessCode ? byAccessCode(engine.store, accessCode) : undefined;
  if (!found) {
    sendHtml(ex.res, 404, notFoundPage('This checkout does not exist.'));
    return;
  }
  const { integration, tx } = found;
  const returnUrl = callbackWithReference(tx.callback_url ?? integration.callback_url, tx.reference);
  if (ex.req.method === 'POST') submit(engine, ex, found, returnUrl);
  else if (tx.status === 'success' || tx.status === 'reversed') sendHtml(ex.res, 200, checkoutOverPage(tx, returnUrl));
  else sendHtml(ex.res, 200, checkoutPage(integration, tx, ex.url.searchParams.get('declined') === '1'));
}

function submit(
  engine: Engine,
  ex: Exchange,
  { integration, tx }: { integration: Integration; tx: Transaction },
  returnUrl: string | null,
): void {
  const choice = textField(ex.fields, 'choice');
  if (!CHECKOUT_CHOICES.includes(choice as CheckoutChoice)) {
    redirect(ex.res, ex.url.pathname);
    return;
  }
  const outcome = payAtCheckout(engine, integration, tx, choice as CheckoutChoice, ex.req.socket.remoteAddress ?? null);
  const leaveTo = outcome === 'abandoned' ? (cancelAction(tx) ?? returnUrl) : returnUrl;
  if (outcome === 'declined') redirect(ex.res, `${ex.url.pathname}?declined=1`);
  else if (leaveTo && outcome !== 'closed') redirect(ex.res, leaveTo);
  else sendHtml(ex.res, 200, checkoutOverPage(tx, returnUrl));
}
