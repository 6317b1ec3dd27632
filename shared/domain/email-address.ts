/**
 * What every field that takes an e-mail address accepts (docs/api.md "Clients"): the request schemas (a client's
 * e-mail, a send's `to` and `cc`) and the merchant's profile.
 *
 * The part before the `@` is an RFC 5321 dot-atom of 7-bit characters (SES sends to no other: an address in quotes,
 * with two dots in a row or with letters such as "ọ" there would be accepted here and fail there), at most 64 of them.
 * So no control character (C0, DEL, C1) anywhere: mail software drops or rewrites them on the way, so
 * `ct\u0000rl@example.com` would be delivered to `ctrl@example.com` — another mailbox than the one recorded and shown.
 */
const EMAIL_ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/u;

export const MAX_EMAIL_LENGTH = 254;

/** RFC 5321's limit on the part before the `@`. */
const MAX_LOCAL_PART_LENGTH = 64;

/** Whether `text` (already trimmed) is an e-mail address as every e-mail field accepts it. */
export const isEmailAddress = (text: string): boolean =>
  text.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(text) && text.indexOf('@') <= MAX_LOCAL_PART_LENGTH;
