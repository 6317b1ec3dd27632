/** The aging report's request (docs/api.md "Aging"): an optional client, the listing mode and bucket, the page. */
import * as z from 'zod/mini';
import { AGING_BUCKETS } from '../domain/aging.ts';
import { addIssue, enumField, fail, field, isBlank, meta, pageCursor, pageLimit, positiveIntegerId } from './fields.ts';

const clientId = z.optional(
  meta(
    field((value, ctx): number | undefined => {
      if (isBlank(value)) return undefined;
      const result = positiveIntegerId(value);
      return result.ok ? result.value : fail(ctx, 'invalid_integer', result.message);
    }),
    { type: ['string', 'integer'], description: "Only this client's invoices (a client of your account)." },
  ),
);

const invoices = z.optional(
  meta(
    field((value, ctx): boolean => {
      if (isBlank(value)) return false;
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      return fail(ctx, 'invalid_enum', 'must be true or false');
    }),
    {
      type: ['boolean', 'string'],
      enum: [true, false, 'true', 'false'],
      default: false,
      description: 'List the open invoices themselves (oldest due first) instead of one row per client.',
    },
  ),
);

export const agingReportSchema = z
  .object({
    client_id: clientId,
    invoices,
    bucket: enumField(AGING_BUCKETS, 'Only open invoices of this bucket (with "invoices": true)', { optional: true }),
    limit: pageLimit,
    cursor: pageCursor,
  })
  .check((ctx) => {
    if (ctx.value.bucket !== undefined && ctx.value.invoices !== true)
      addIssue(ctx, {
        code: 'custom',
        path: ['bucket'],
        message: 'applies to the invoice listing only: send "invoices": true with it',
        params: { code: 'invalid_value' },
      });
  });

export type AgingReportInput = z.output<typeof agingReportSchema>;
