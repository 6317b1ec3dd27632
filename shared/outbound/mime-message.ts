/**
 * One RFC 5322 message (multipart/mixed: a multipart/alternative of text and HTML, and the PDF attached), built by
 * nodemailer's MailComposer — never by hand: header encoding (RFC 2047 for `₦` in a subject or a name), line
 * folding, quoted-printable and base64 bodies and boundaries are its job (docs/decisions.md "Invoice e-mail").
 * Loaded only by the mailer.
 */
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { LOGO_CID, type Logo } from '../domain/logo.ts';

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
const inlineLogo = (logo: Logo | undefined): Pick<MimeMessage, 'inline'> =>
  logo ? { inline: [{ cid: LOGO_CID, contentType: logo.mediaType, content: logo.bytes }] } : {};

/** A document's e-mail (an invoice, a receipt, a statement): its rendered content and its PDF. */
export interface DocumentMail {
  /** The stage's verified sender, under the merchant's name. */
  from: MimeAddress;
  /** The merchant: replies go to its address; its logo is shown inline. */
  merchant: { email?: string | undefined; logo?: Logo | undefined };
  to: string;
  cc: readonly string[];
  content: { subject: string; text: string; html: string; pdfFileName: string };
  pdf: Uint8Array;
}

/** The message of a document's e-mail: its PDF attached, replies to the merchant (docs/sending-invoices.md). */
export const buildDocumentMessage = ({ from, merchant, to, cc, content, pdf }: DocumentMail): Promise<Buffer> =>
  buildMimeMessage({
    from,
    replyTo: merchant.email,
    to,
    cc,
    subject: content.subject,
    text: content.text,
    html: content.html,
    attachment: { fileName: content.pdfFileName, contentType: 'application/pdf', content: pdf },
    ...inlineLogo(merchant.logo),
  });

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
