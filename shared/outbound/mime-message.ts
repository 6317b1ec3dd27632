/**
 * One RFC 5322 message (multipart/mixed: a multipart/alternative of text and HTML, and the PDF attached), built by
 * nodemailer's MailComposer — never by hand: header encoding (RFC 2047 for `₦` in a subject or a name), line
 * folding, quoted-printable and base64 bodies and boundaries are its job (docs/decisions.md "Invoice e-mail").
 * Loaded only by the mailer.
 */
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

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
}

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
    ],
  });
  return composer.compile().build();
}
