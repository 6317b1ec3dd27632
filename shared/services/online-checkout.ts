/**
 * The pay button (docs/getting-paid-online.md "The pay button"): `POST /i/{token}/pay` keeps a checkout attempt — the
 * reference it sends Paystack, what it asks and with which fees — then asks Paystack's `transaction/initialize` for a
 * checkout of the invoice's checkout amount, and leads the client there. A paid, voided or unconnected invoice, or
 * Paystack down or slow, comes back to the page with a sentence why. Nothing is recorded from an initialize.
 */
import { loadConfig } from '../config.ts';
import { formatTimestamp } from '../domain/dates.ts';
import { type CheckoutAttempt, checkoutOffer, checkoutReference } from '../domain/online-recording.ts';
import { hostedUrlOrNull } from '../hosted-url.ts';
import type { InvoiceDocument } from '../render/invoice-document.ts';
import type { InvoicePageReading } from '../store/invoice-pages.ts';
import { putCheckoutAttempt } from '../store/online-payments.ts';
import { paystackSecretKey } from '../store/paystack-connections.ts';
import { newUlid } from '../ulid.ts';
import { hostedInvoiceReading, pageDocumentOf } from './invoice-document.ts';

/** Where the press leads: Paystack's checkout, or the page again with why not. */
export type CheckoutAnswer =
  | { kind: 'checkout'; location: string }
  | { kind: 'page'; document: InvoiceDocument; notice: string | undefined };

export const ALREADY_PAID_NOTICE = 'This invoice is already paid: nothing is due on it.';
export const NOT_ONLINE_NOTICE = 'This invoice cannot be paid online. Please pay by the instructions below.';
export const UNAVAILABLE_NOTICE =
  'Online payment is unavailable right now. Try again, or pay by the instructions below.';

export async function startCheckout(token: string): Promise<CheckoutAnswer> {
  const reading = await hostedInvoiceReading(token);
  const { invoice, paystack } = reading;
  const page = (notice: string | undefined): CheckoutAnswer => ({
    kind: 'page',
    document: pageDocumentOf(reading),
    notice,
  });
  const offer = checkoutOffer(invoice, paystack.sealedKey ? paystack.fees : undefined);
  if (!offer.ok)
    return page(
      offer.refusal === 'paid' ? ALREADY_PAID_NOTICE : offer.refusal === 'void' ? undefined : NOT_ONLINE_NOTICE,
    );
  const secretKey = await paystackSecretKey(paystack);
  const hostedUrl = hostedUrlOrNull(invoice.details.hostedToken);
  if (!secretKey || !hostedUrl) return page(NOT_ONLINE_NOTICE);
  const attempt = newAttempt(reading, offer);
  await putCheckoutAttempt(attempt);
  const { PaystackApi } = await import('../outbound/paystack.ts');
  const checkout = await new PaystackApi(secretKey, { baseUrl: loadConfig().paystackBaseUrl }).initialize({
    email: invoice.details.client.email,
    amountKobo: attempt.expectedKobo,
    reference: attempt.reference,
    callbackUrl: `${hostedUrl}/paid`,
    metadata: { reference_code: invoice.details.referenceCode, company_id: invoice.details.companyId },
  });
  return checkout.ok ? { kind: 'checkout', location: checkout.value.authorizationUrl } : page(UNAVAILABLE_NOTICE);
}

function newAttempt(
  { invoice, paystack }: InvoicePageReading,
  offer: { amountKobo: number; feeBearer: CheckoutAttempt['feeBearer'] },
): CheckoutAttempt {
  const { details, balance } = invoice;
  return {
    reference: checkoutReference(details.referenceCode, newUlid()),
    companyId: details.companyId,
    referenceCode: details.referenceCode,
    invoiceId: details.id,
    expectedKobo: offer.amountKobo,
    amountDueKobo: balance.amountDueKobo,
    feeBearer: offer.feeBearer,
    fees: paystack.fees,
    createdAt: formatTimestamp(new Date()),
  };
}
