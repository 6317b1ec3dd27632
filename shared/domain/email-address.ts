/**
 * What every field that takes an e-mail address accepts (docs/api.md "Clients"): the request schemas (a client's
 * e-mail, a send's `to` and `cc`) and the merchant's profile.
 *
 * No control character (C0, DEL, C1: `\p{Cc}`) anywhere: mail software drops or rewrites them on the way, so
 * `ct\u0000rl@example.com` would be delivered to `ctrl@example.com` — another mailbox than the one recorded and shown.
 */
const EMAIL_ADDRESS =
  /^[^\s\p{Cc}@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/u;

export const MAX_EMAIL_LENGTH = 254;

/** Whether `text` (already trimmed) is an e-mail address as every e-mail field accepts it. */
export const isEmailAddress = (text: string): boolean => text.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(text);
