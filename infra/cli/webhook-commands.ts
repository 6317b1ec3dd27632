/**
 * Webhook commands of the CLI (docs/webhooks.md): `webhook:set`, `webhook:remove`,
 * `webhook:deliveries`, `webhook:resend`. Parsing and running live here; the CLI entry point only
 * routes `webhook:*` to `parseWebhookCommand` and `runWebhookCommand`.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ulid } from 'ulid';
import { loadConfig } from '#shared/config';
import { EVENT_ID_PATTERN, SECRET_BYTES, formatSecret, parseWebhookUrl } from '#shared/domain/webhook-events';
import { checkHostAddresses } from '#shared/outbound/webhook-post';
import { getAccount } from '#shared/store/accounts';
import { sealSecret } from '#shared/store/webhook-secrets';
import { DEFAULT_DELIVERIES_LIMIT, deleteEndpoint, listDeliveries, putEndpoint, requestResend } from '#shared/store/webhooks';

export const WEBHOOK_COMMANDS = ['webhook:set', 'webhook:remove', 'webhook:deliveries', 'webhook:resend'] as const;
type WebhookCommandName = (typeof WEBHOOK_COMMANDS)[number];

export type WebhookCommand =
  | { command: 'webhook:set'; companyId: number; url: string }
  | { command: 'webhook:remove'; companyId: number }
  | { command: 'webhook:deliveries'; companyId: number; limit: number }
  | { command: 'webhook:resend'; eventId: string }
  | { command: 'help'; usage: string };

/** A problem the user can act on; the CLI prints its message as `{"error": …}`. */
export class WebhookCliError extends Error {
  override name = 'WebhookCliError';
}

const HELP: Record<WebhookCommandName, string> = {
  'webhook:set': `Usage: npm run --silent webhook:set -- --company-id N --url URL
Sets the account's one webhook endpoint and prints {"company_id":N,"url":"…","secret":"whsec_…"}.
The secret is shown once; setting again (same or another URL) rotates it. Deployed stages accept only
https URLs whose host is not a private, loopback or link-local address; the local runtime also accepts
http://127.0.0.1:PORT and http://localhost:PORT. See docs/webhooks.md.`,
  'webhook:remove': `Usage: npm run --silent webhook:remove -- --company-id N
Removes the account's webhook endpoint; pending deliveries stop. Prints {"company_id":N,"removed":true}.`,
  'webhook:deliveries': `Usage: npm run --silent webhook:deliveries -- --company-id N [--limit ${DEFAULT_DELIVERIES_LIMIT}]
Prints one JSON line per recent event, newest first: event_id, type, created_at, state
(pending | delivered | failed | skipped), attempts, last_status or last_error, last_attempt_at, next_attempt_at.`,
  'webhook:resend': `Usage: npm run --silent webhook:resend -- --event-id evt_…
Delivers an event again (its delivery state starts over). Prints {"event_id":"evt_…","company_id":N,"resent":true}.`,
};

export const WEBHOOK_USAGE = `  npm run --silent webhook:set -- --company-id 1 --url https://example.com/webhooks
  npm run --silent webhook:remove -- --company-id 1
  npm run --silent webhook:deliveries -- --company-id 1 [--limit ${DEFAULT_DELIVERIES_LIMIT}]
  npm run --silent webhook:resend -- --event-id evt_…`;

export const isWebhookCommand = (name: string | undefined): name is WebhookCommandName =>
  (WEBHOOK_COMMANDS as readonly string[]).includes(name ?? '');

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new WebhookCliError(`${(error as Error).message.split('. ')[0]!.replace(/\.$/, '')}. See --help.`);
  }
}

function required(value: string | boolean | undefined, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new WebhookCliError(`--${option} is required.`);
  return value.trim();
}

function positiveInteger(value: string, option: string): number {
  const number = Number(value);
  if (!/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(number)) throw new WebhookCliError(`--${option} must be a positive integer.`);
  return number;
}

/** Parses the arguments after a `webhook:*` command name. */
export function parseWebhookCommand(command: WebhookCommandName, rest: string[]): WebhookCommand {
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', usage: HELP[command] };
  switch (command) {
    case 'webhook:set': {
      const values = parse(rest, { 'company-id': { type: 'string' }, url: { type: 'string' } });
      return { command, companyId: positiveInteger(required(values['company-id'], 'company-id'), 'company-id'), url: required(values.url, 'url') };
    }
    case 'webhook:remove': {
      const values = parse(rest, { 'company-id': { type: 'string' } });
      return { command, companyId: positiveInteger(required(values['company-id'], 'company-id'), 'company-id') };
    }
    case 'webhook:deliveries': {
      const values = parse(rest, { 'company-id': { type: 'string' }, limit: { type: 'string' } });
      const limit = values.limit === undefined ? DEFAULT_DELIVERIES_LIMIT : positiveInteger(String(values.limit), 'limit');
      if (limit > 1000) throw new WebhookCliError('--limit must be at most 1000.');
      return { command, companyId: positiveInteger(required(values['company-id'], 'company-id'), 'company-id'), limit };
    }
    case 'webhook:resend': {
      const values = parse(rest, { 'event-id': { type: 'string' } });
      const eventId = required(values['event-id'], 'event-id');
      if (!EVENT_ID_PATTERN.test(eventId)) throw new WebhookCliError('--event-id must be an event id: evt_ followed by 26 characters.');
      return { command, eventId };
    }
  }
}

export interface WebhookCliContext {
  /** True when the CLI works on DynamoDB Local (the local runtime's URL policy applies). */
  local: boolean;
}

/** Runs a parsed webhook command; returns the JSON lines to print. */
export async function runWebhookCommand(command: Exclude<WebhookCommand, { command: 'help' }>, context: WebhookCliContext): Promise<Record<string, unknown>[]> {
  switch (command.command) {
    case 'webhook:set': {
      const policy = { allowLoopback: context.local || loadConfig().webhookAllowLoopback };
      const url = parseWebhookUrl(command.url, policy);
      if (!url.ok) throw new WebhookCliError(`--url ${url.message}.`);
      const problem = await checkHostAddresses(new URL(url.value).hostname, policy);
      if (problem) throw new WebhookCliError(`--url host ${problem}.`);
      if (!(await getAccount(command.companyId))) throw new WebhookCliError(`No account with company_id ${command.companyId}.`);
      if (!context.local && !loadConfig().webhookKmsKeyId) {
        throw new WebhookCliError('Set WEBHOOK_KMS_KEY_ID to the stage\'s webhook KMS key (a stack output) to seal the secret.');
      }
      const keyBytes = randomBytes(SECRET_BYTES);
      await putEndpoint(command.companyId, url.value, await sealSecret(command.companyId, keyBytes));
      return [{ company_id: command.companyId, url: url.value, secret: formatSecret(keyBytes) }];
    }
    case 'webhook:remove': {
      if (!(await deleteEndpoint(command.companyId))) throw new WebhookCliError(`No webhook endpoint for company_id ${command.companyId}.`);
      return [{ company_id: command.companyId, removed: true }];
    }
    case 'webhook:deliveries':
      return (await listDeliveries(command.companyId, command.limit)) as unknown as Record<string, unknown>[];
    case 'webhook:resend': {
      const companyId = await requestResend(command.eventId, ulid());
      if (companyId === undefined) throw new WebhookCliError(`No event ${command.eventId} (events are kept 30 days).`);
      return [{ event_id: command.eventId, company_id: companyId, resent: true }];
    }
  }
}
