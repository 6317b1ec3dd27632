/**
 * The codes the local Paystack server makes up, spelled as Paystack's are: references, access codes, customer codes
 * (`CUS_…`), authorization codes (`AUTH_…`) and card signatures (`SIG_…`).
 */
import { createHash, randomInt } from 'node:crypto';

const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function randomCode(length: number, alphabet = LOWER_ALPHANUMERIC): string {
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** A reference Paystack would generate when none is given (`re4lyvq3s3`). */
export const newReference = () => randomCode(10);
export const newAccessCode = () => randomCode(15);
export const newCustomerCode = () => `CUS_${randomCode(15)}`;
export const newAuthorizationCode = () => `AUTH_${randomCode(10)}`;
export const newRefundReference = () => `TRF_${randomCode(15)}`;

/** The same card of the same customer has the same signature, as on Paystack (it tells saved cards apart). */
export function cardSignature(customerCode: string, card: string): string {
  return `SIG_${createHash('sha256').update(`${customerCode}/${card}`).digest('hex').slice(0, 20)}`;
}

/** References Paystack accepts: letters, digits, `-`, `.` and `=`. */
export const VALID_REFERENCE = /^[A-Za-z0-9.=-]+$/;
