/** The invoice's reminder fields (docs/receivables.md "Reminders"), spread into the Invoice schema (./responses.ts). */
import { object, type Schema, timestamp } from './schema-builders.ts';

const Reminder = object('One reminder e-mail of the invoice.', {
  offset: { type: 'integer', description: "The schedule's day it was for, relative to the due date (−3, 0, 7 …)" },
  sent_at: timestamp('When the sweep queued its e-mail (delivery: `mail:deliveries`)'),
});

export const REMINDER_FIELDS: Record<string, Schema> = {
  reminders: {
    type: 'array',
    description: 'The reminders sent, oldest first, at most one per offset of the schedule; `[]` when none',
    items: Reminder,
  },
  reminders_paused: {
    type: 'boolean',
    description: 'Whether its reminders are paused (`POST /invoices/{reference_code}/reminders`)',
  },
  reminder_offset: {
    type: 'integer',
    description: 'The offset of the reminder sent (in `invoice.reminder_sent` only)',
  },
};

/** The `data` of `invoice.reminder_sent`: the invoice with its `client`, and `reminder_offset`. */
export const REMINDER_SCHEMAS: Record<string, Schema> = {
  InvoiceReminderSent: {
    description: 'The invoice with its `client` and `items` as shown that day, and the offset of the reminder sent.',
    allOf: [{ $ref: '#/components/schemas/InvoiceWithClient' }, { required: ['reminder_offset'] }],
  },
};
