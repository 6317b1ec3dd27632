/** Option validators shared by the CLI commands; each throws a UsageError that names the option. */
import { UsageError } from './command.ts';

export function requiredString(value: string | undefined, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${option} is required.`);
  return value.trim();
}

export function positiveInteger(value: string | undefined, option: string, max = Number.MAX_SAFE_INTEGER): number {
  const raw = requiredString(value, option);
  const parsed = Number(raw);
  if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(parsed) || parsed > max) {
    throw new UsageError(
      `--${option} must be a positive integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}.`,
    );
  }
  return parsed;
}

/** The `--company-id N` option, as most commands take it. */
export const COMPANY_ID = {
  type: 'string',
  placeholder: 'N',
  required: true,
  description: 'the account (company_id)',
} as const;

export const companyId = (values: { 'company-id'?: string | undefined }): number =>
  positiveInteger(values['company-id'], 'company-id');
