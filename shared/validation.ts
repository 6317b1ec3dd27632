/** Turns zod failures into per-field errors (docs/api.md "Errors") with stable codes. */
import type { z } from 'zod/mini';
import { type FieldError, invalidFields } from './domain/refusal.ts';
import { propertyOf } from './guards.ts';

const ZOD_CODE_MAP: Record<string, string> = {
  invalid_type: 'invalid_type',
  invalid_value: 'invalid_enum',
  invalid_union: 'invalid_type',
  too_big: 'too_long',
  too_small: 'too_short',
  invalid_format: 'invalid_value',
};

function toFieldError(issue: z.core.$ZodIssue): FieldError {
  const ownCode = propertyOf(propertyOf(issue, 'params'), 'code');
  const missing = issue.code === 'invalid_type' && !('input' in issue);
  return {
    code: typeof ownCode === 'string' ? ownCode : missing ? 'required' : (ZOD_CODE_MAP[issue.code] ?? 'invalid_value'),
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : null,
    message: issue.message,
  };
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text that is not valid Unicode (an unpaired UTF-16 surrogate, which JSON's `\uD800` escape can produce)
 * cannot be encoded as UTF-8, so DynamoDB would refuse it: reject it as a field error instead of a 500.
 */
function unpairedSurrogates(value: unknown, path: string[] = [], found: FieldError[] = []): FieldError[] {
  if (typeof value === 'string') {
    if (UNPAIRED_SURROGATE.test(value)) {
      found.push({
        code: 'invalid_value',
        field: path.join('.') || null,
        message: 'must be valid Unicode text (no unpaired surrogates)',
      });
    }
  } else if (value && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (UNPAIRED_SURROGATE.test(key))
        found.push({
          code: 'invalid_value',
          field: path.join('.') || null,
          message: 'keys must be valid Unicode text',
        });
      unpairedSurrogates(entry, [...path, key], found);
    }
  }
  return found;
}

export interface ParseOptions {
  /** When every problem is on one of these fields, the top-level code is `invalid_period`. */
  periodFields?: readonly string[];
}

/**
 * Validates a parsed request body; throws the refusal (`validation_failed`, or `invalid_period`) listing every problem.
 */
export function parseRequest<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  options: ParseOptions = {},
): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidFields([{ code: 'invalid_type', field: null, message: 'the request body must be a JSON object' }]);
  }
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) {
    const badText = unpairedSurrogates(result.data);
    if (badText.length > 0) throw invalidFields(badText);
    return result.data;
  }
  const errors = result.error.issues.map(toFieldError);
  const periodFields = options.periodFields;
  const isPeriodProblem =
    periodFields !== undefined && errors.every((e) => e.field !== null && periodFields.includes(e.field));
  throw invalidFields(errors, isPeriodProblem ? 'invalid_period' : 'validation_failed');
}
