/**
 * An invoice's `hosted_url` (docs/sending-invoices.md "The link"): the stage's public base URL + `/i/<token>`.
 * The base URL is configuration (PUBLIC_BASE_URL: the CDK stack sets the HTTP API's URL or the stage's
 * `publicBaseUrl`; `npm start` its own address), so views, events, the mailer and the sweeps all agree on it.
 */
import { loadConfig } from './config.ts';

/** The absolute URL of the hosted page of the invoice with this token. */
export const hostedUrlOf = (token: string): string => `${loadConfig().publicBaseUrl()}/i/${token}`;

/** `hosted_url` of an invoice: null for one created before hosted pages and not yet migrated (`data:migrate`). */
export const hostedUrlOrNull = (token: string | undefined): string | null =>
  token === undefined ? null : hostedUrlOf(token);
