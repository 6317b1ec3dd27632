/**
 * The hosted page's token (docs/sending-invoices.md "The link"): the secret in an invoice's `hosted_url`. 18 bytes
 * from the cryptographic RNG (144 bits), base64url: not derived from any id, unguessable, and unique per invoice (its
 * lookup item is put on condition that it is new, in the invoice's own transaction).
 */
import { randomBytes } from 'node:crypto';

export const HOSTED_TOKEN_BYTES = 18;

/** 24 base64url characters; anything else names no invoice and is never sent to the database as a key. */
export const HOSTED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;

export const generateHostedToken = (): string => randomBytes(HOSTED_TOKEN_BYTES).toString('base64url');
