/**
 * One RFC 5322 message (multipart/mixed: a multipart/alternative of text and HTML, and the PDF attached), built by
 * nodemailer's MailComposer — never by hand: header encoding (RFC 2047 for `₦` in a subject or a name), line
 * folding, quoted-printable and base64 bodies and boundaries are its job (docs/decisions.md "Invoice e-mail").
 * Loaded only by the mailer.
 */
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { LOGO_CID } from '../domain/logo.ts';

export interface MimeAddress {
  name?: string | undefined;
  address: string;
}

export interface MimeMessage {
  from: MimeAddress;
  replyTo?: string | undefined;
  to: string;
  cc: readonly string[];
  subject: string;
  text: string;
  html: string;
  attachment: { fileName: string; contentType: string; content: Uint8Array };
  /** Images the HTML shows by `cid:` (the merchant's logo): mail clients block `data:` URLs and remote images. */
  inline?: { cid: string; contentType: string; content: Uint8Array }[];
}

/** The logo as the message's inline image, when there is one. */
export const inlineLogo = (logo: { mediaType: string; bytes: Uint8Array } | undefined): Pick<MimeMessage, 'inline'> =>
  logo ? { inline: [{ cid: LOGO_CID, contentType: logo.mediaType, content: logo.bytes }] } : {};

/** The message's bytes, ready for SES `SendEmail` raw content (and for a `.eml` file). */
export function buildMimeMessage(message: MimeMessage): Promise<Buffer> {
  const composer = new MailComposer({
    from: message.from.name ? { name: message.from.name, address: message.from.address } : message.from.address,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    to: message.to,
    ...(message.cc.length > 0 ? { cc: [...message.cc] } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: [
      {
        filename: message.attachment.fileName,
        contentType: message.attachment.contentType,
        content: Buffer.from(message.attachment.content),
      },
      ...(message.inline ?? []).map((image) => ({
        cid: image.cid,
        filename: false as const,
        contentType: image.contentType,
        content: Buffer.from(image.content),
        contentDisposition: 'inline' as const,
      })),
    ],
  });
  return composer.compile().build();
}
