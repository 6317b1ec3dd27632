/**
 * The small builders the response schemas (responses.ts, report-responses.ts) are written with: JSON Schema 2020-12,
 * as OpenAPI 3.1 uses.
 */
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const string = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
export const constant = (value: string, description: string): Schema => ({
  type: 'string',
  description,
  examples: [value],
});
export const timestamp = (description: string): Schema =>
  string(`${description} (UTC, \`YYYY-MM-DD HH:MM:SS\`)`, { pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' });
export const unixDate = (description: string): Schema =>
  string(`${description}: Unix timestamp in seconds of 00:00:00 UTC of that calendar date, as a string of digits`, {
    pattern: '^\\d+$',
  });
export const money = (description: string): Schema =>
  string(`${description}: decimal string with exactly two decimals, no separators`, { pattern: '^\\d+\\.\\d{2}$' });
export const digits = (description: string): Schema => string(description, { pattern: '^\\d+$' });
export const nullValue = (description: string): Schema => ({ type: ['string', 'null'], description });

export function object(
  description: string,
  properties: Record<string, Schema>,
  optional: readonly string[] = [],
): Schema {
  return {
    type: 'object',
    description,
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}
