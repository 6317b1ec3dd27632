/** Reminders request schema (docs/api.md "Reminders"): `POST /invoices/{reference_code}/reminders` `{"paused":…}`. */
import * as z from 'zod/mini';
import type { RemindersRequest } from '../domain/reminders.ts';
import { fail, field, isAbsent, meta } from './fields.ts';

const paused = meta(
  field((value, ctx): boolean => {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    if (isAbsent(value)) return fail(ctx, 'required', 'is required: true pauses the reminders, false resumes them');
    return fail(ctx, 'invalid_enum', 'must be true or false');
  }),
  {
    type: ['boolean', 'string'],
    enum: [true, false, 'true', 'false'],
    description: "true pauses the invoice's reminders, false resumes them (a reminder due today is then sent today)",
  },
);

export const remindersSchema = z.object({ paused });

export type RemindersInput = z.output<typeof remindersSchema>;
// The request maps onto the domain's own input type as it is: a change on either side that breaks this fails tsc.
export const toRemindersRequest = (input: RemindersInput): RemindersRequest => input;
