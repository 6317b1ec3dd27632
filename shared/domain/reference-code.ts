import { randomInt } from 'node:crypto';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 20 characters [A-Za-z0-9] from a cryptographic RNG (≈119 bits); uniqueness is enforced by a conditional write. */
export function generateReferenceCode(): string {
  let code = '';
  for (let i = 0; i < 20; i++) code += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return code;
}
