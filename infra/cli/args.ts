/**
 * Command-line parsing for the account CLI: turns argv into one validated command, or throws a
 * `UsageError` whose message is shown to the user as `{"error": …}`.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SECRET_KEY_PATTERN } from '#shared/store/accounts';
import { isWebhookCommand, parseWebhookCommand, WEBHOOK_USAGE, type WebhookCommand } from './webhook-commands';

export type CliCommand =
  | { command: 'account:create'; name: string; currency?: string; timeZone?: string; tokenizationEnabled?: boolean }
  | { command: 'key:create'; companyId: number }
  | { command: 'key:revoke'; key: string }
  | { command: 'help'; usage?: string }
  | Exclude<WebhookCommand, { command: 'help' }>;

/** A problem with the command line (exit code 1, nothing on stdout). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const USAGE = `Usage:
  npm run --silent account:create -- --name "Acme" [--currency NGN] [--time-zone Africa/Lagos] [--tokenization-enabled]
  npm run --silent key:create -- --company-id 1
  npm run --silent key:revoke -- --key sk_…
${WEBHOOK_USAGE}
Each prints one JSON line on stdout; errors print {"error": "…"} on stderr and exit with code 1.`;

const MAX_NAME_LENGTH = 500;

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // Node's messages go on to explain "--" escaping, which is no help here.
    throw new UsageError(`${(error as Error).message.split('. ')[0]!.replace(/\.$/, '')}. See --help.`);
  }
}

function required(value: string | boolean | undefined, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${option} is required.`);
  return value.trim();
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Parses `argv` (without node and the script), e.g. `['account:create', '--name', 'Acme']`. */
export function parseCommand(argv: string[]): CliCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (isWebhookCommand(command)) return parseWebhookCommand(command, rest);

  switch (command) {
    case 'account:create': {
      const values = parse(rest, {
        name: { type: 'string' },
        currency: { type: 'string' },
        'time-zone': { type: 'string' },
        'tokenization-enabled': { type: 'boolean' },
      });
      const name = required(values.name, 'name');
      if (name.length > MAX_NAME_LENGTH) throw new UsageError(`--name must be at most ${MAX_NAME_LENGTH} characters.`);
      const result: CliCommand = { command, name };
      if (values.currency !== undefined) {
        const currency = String(values.currency).trim().toUpperCase();
        if (!/^[A-Z]{3}$/.test(currency)) throw new UsageError('--currency must be a three-letter ISO 4217 code such as NGN.');
        result.currency = currency;
      }
      if (values['time-zone'] !== undefined) {
        const timeZone = String(values['time-zone']).trim();
        if (!isTimeZone(timeZone)) throw new UsageError('--time-zone must be an IANA time zone such as Africa/Lagos.');
        result.timeZone = timeZone;
      }
      if (values['tokenization-enabled'] === true) result.tokenizationEnabled = true;
      return result;
    }
    case 'key:create': {
      const values = parse(rest, { 'company-id': { type: 'string' } });
      const raw = required(values['company-id'], 'company-id');
      const companyId = Number(raw);
      if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(companyId)) throw new UsageError('--company-id must be a positive integer.');
      return { command, companyId };
    }
    case 'key:revoke': {
      const values = parse(rest, { key: { type: 'string' } });
      const key = required(values.key, 'key');
      if (!SECRET_KEY_PATTERN.test(key)) throw new UsageError('--key must be a secret key: sk_ followed by 40 letters and digits.');
      return { command, key };
    }
    default:
      throw new UsageError(`Unknown command "${command}". Commands: account:create, key:create, key:revoke, webhook:set, webhook:remove, webhook:deliveries, webhook:resend.`);
  }
}
