/**
 * The invoice e-mail (shared/render/invoice-email.ts, shared/outbound/mime-message.ts): its content from the invoice
 * document, and the one MIME message nodemailer's MailComposer builds from it — read back with mailparser.
 */
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildMimeMessage } from '../../shared/outbound/mime-message.ts';
import type { InvoiceDocument } from '../../shared/render/invoice-document.ts';
import { invoiceEmailContent } from '../../shared/render/invoice-email.ts';

const document = (overrides: Partial<InvoiceDocument> = {}): InvoiceDocument => ({
  merchant: { name: 'Acme <Supplies> & Co', address: [], contacts: [], email: 'billing@acme.ng' },
  client: { name: 'Ada "the client" Obi', address: [] },
  number: '42',
  referenceCode: 'AbCdEfGhIjKlMnOpQrSt',
  issued: { text: '1 Nov 2026', iso: '2026-11-01' },
  due: { text: '30 Nov 2026', iso: '2026-11-30' },
  currency: 'NGN',
  lines: [{ name: '<script>alert(1)</script>', quantity: '2', unitCost: '₦500.00', lineTotal: '₦1,000.00' }],
  split: [],
  total: '₦1,000.00',
  amountPaid: '₦0.00',
  amountDue: '₦1,000.00',
  status: 'unpaid',
  statusLabel: 'Unpaid',
  paymentInstructions: [{ label: 'Bank', value: 'Zenith' }],
  hostedUrl: 'https://api.example.com/i/tok"en',
  ...overrides,
});

describe('invoiceEmailContent', () => {
  it("a reminder's subject and first line say how the due date stands; the rest is the invoice e-mail", () => {
    // Act
    const before = invoiceEmailContent(document(), undefined, { daysFromDue: -3 });
    const onTheDay = invoiceEmailContent(document(), undefined, { daysFromDue: 0 });
    const after = invoiceEmailContent(document(), undefined, { daysFromDue: 7 });
    // Assess
    expect(before.subject).toBe('Reminder: Invoice 42 from Acme <Supplies> & Co is due in 3 days (₦1,000.00 due)');
    expect(onTheDay.subject).toContain('is due today');
    expect(after.subject).toContain('is overdue by 7 days');
    expect(after.text).toContain('A reminder from Acme <Supplies> & Co: this invoice is overdue by 7 days.');
    expect(after.html).toContain('A reminder from Acme &lt;Supplies&gt; &amp; Co: this invoice is overdue by 7 days.');
    expect(after.text).toContain('View the invoice online: https://api.example.com/i/tok"en');
    expect(after.pdfFileName).toBe('invoice-AbCdEfGhIjKlMnOpQrSt.pdf');
  });

  it('says who, what, how much, by when, how to pay and where to read it, in text and in HTML', () => {
    const content = invoiceEmailContent(document(), 'Thanks!\nSee you <soon>.');
    expect(content.subject).toBe('Invoice 42 from Acme <Supplies> & Co: ₦1,000.00 due 30 Nov 2026');
    expect(content.pdfFileName).toBe('invoice-AbCdEfGhIjKlMnOpQrSt.pdf');
    for (const part of ['Invoice number: 42', 'Amount due: ₦1,000.00', 'Bank: Zenith', 'See you <soon>.'])
      expect(content.text).toContain(part);
    expect(content.text).toContain('View the invoice online: https://api.example.com/i/tok"en');
    expect(content.html).toContain('Acme &lt;Supplies&gt; &amp; Co');
    expect(content.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(content.html).toContain('See you &lt;soon&gt;.');
    expect(content.html).toContain('href="https://api.example.com/i/tok&quot;en"');
    expect(content.html).not.toMatch(/<script|<img|<link|https?:\/\/(?!api\.example\.com)/);
  });

  it('shows the split, each line’s discount and category, the notes and the terms (docs/tax.md)', () => {
    const content = invoiceEmailContent(
      document({
        split: [
          { label: 'Subtotal', amount: '₦1,000.00' },
          { label: 'VAT 7.5% on ₦900.00', amount: '₦67.50' },
        ],
        lines: [
          {
            name: 'Bread',
            quantity: '1',
            unitCost: '₦1,000.00',
            lineTotal: '₦1,000.00',
            discount: '₦100.00',
            taxLabel: 'Zero-rated',
          },
        ],
        notes: 'Thank you <3',
        terms: 'Net 30.',
        client: { name: 'Ada Obi', company: 'Obi Ventures', address: ['14 Broad Street', 'Lagos'] },
      }),
    );
    expect(content.text).toContain('Bill to: Ada Obi, Obi Ventures, 14 Broad Street, Lagos');
    for (const part of [
      'Subtotal: ₦1,000.00',
      'VAT 7.5% on ₦900.00: ₦67.50',
      '(less ₦100.00 discount, Zero-rated)',
      'Notes:\nThank you <3',
      'Terms:\nNet 30.',
    ])
      expect(content.text).toContain(part);
    expect(content.html).toContain('Thank you &lt;3');
    expect(content.html).toContain('VAT 7.5% on ₦900.00');
  });

  it('leaves out what is not set: no note, no payment instructions, no link', () => {
    const content = invoiceEmailContent(document({ paymentInstructions: [], hostedUrl: null }));
    expect(content.text).not.toMatch(/How to pay|View the invoice online|undefined|null/);
    expect(content.html).not.toMatch(/How to pay|href=|undefined|null/);
  });

  it("a paid invoice's says when it was paid and not how to pay; a voided one's not how to pay; credit notes listed", () => {
    const creditNotes = [
      {
        number: 'CN-000001',
        date: { text: '2 Nov 2026', iso: '2026-11-02' },
        reason: 'Returned <2>',
        amount: '₦400.00',
      },
    ];
    const paidOn = { text: '3 Nov 2026', iso: '2026-11-03' };
    const payments = { receipts: [], creditNotes, paidOn };
    const paid = invoiceEmailContent(document({ status: 'paid', statusLabel: 'Paid', payments }));
    expect(paid.text).toContain('Paid on: 3 Nov 2026');
    expect(paid.text).toContain('Credit note CN-000001: ₦400.00 on 2 Nov 2026: Returned <2>');
    expect(paid.html).toContain('Returned &lt;2&gt;');
    expect(paid.text).not.toContain('How to pay');
    expect(paid.html).not.toContain('How to pay');
    const voided = invoiceEmailContent(document({ status: 'void', statusLabel: 'Void' }));
    expect(voided.text).not.toMatch(/How to pay|Paid on/);
    const partly = invoiceEmailContent(document({ status: 'partially_paid', statusLabel: 'Partially paid', payments }));
    expect(partly.text).toContain('How to pay');
    expect(partly.text).not.toContain('Paid on');
  });

  it('keeps the subject on one line whatever the names hold', () => {
    const content = invoiceEmailContent(
      document({ merchant: { name: 'A\r\nBcc: x@y.ng', address: [], contacts: [] } }),
    );
    expect(content.subject).not.toMatch(/[\r\n]/);
  });
});

describe('buildMimeMessage', () => {
  it('builds multipart/mixed: text and HTML alternatives and the PDF, with encoded headers', async () => {
    const content = invoiceEmailContent(document(), 'Hello');
    const pdf = new TextEncoder().encode('%PDF-1.7 test bytes');
    const raw = await buildMimeMessage({
      from: { name: 'Acme <Supplies> & Co', address: 'invoices@example.com' },
      replyTo: 'billing@acme.ng',
      to: 'ada@example.com',
      cc: ['boss@example.com'],
      subject: content.subject,
      text: content.text,
      html: content.html,
      attachment: { fileName: content.pdfFileName, contentType: 'application/pdf', content: pdf },
    });
    const head = raw.toString('utf8').split('\r\n\r\n')[0]!;
    expect(head).toMatch(/^Content-Type: multipart\/mixed; boundary=/m);
    expect(head).not.toContain('₦'); // RFC 2047 encoded
    const message = await simpleParser(raw);
    expect(message.from?.value).toEqual([{ name: 'Acme <Supplies> & Co', address: 'invoices@example.com' }]);
    expect(message.replyTo?.text).toBe('billing@acme.ng');
    expect(message.to).toMatchObject({ text: 'ada@example.com' });
    expect(message.cc).toMatchObject({ text: 'boss@example.com' });
    expect(message.subject).toBe(content.subject);
    expect(message.text?.trim()).toBe(content.text.trim());
    expect(message.html).toBe(content.html);
    expect(message.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
      ['invoice-AbCdEfGhIjKlMnOpQrSt.pdf', 'application/pdf', '%PDF-1.7 test bytes'],
    ]);
  });
});
