/**
 * `webhook:set`, `webhook:remove`, `webhook:deliveries`, `webhook:resend` (docs/webhooks.md).
 */
import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import { loadConfig } from '../../shared/config.ts';
import { EVENT_ID_PATTERN } from '../../shared/domain/webhook-events.ts';
import { formatSecret, SECRET_BYTES } from '../../shared/domain/webhook-signature.ts';
import { parseWebhookUrl } from '../../shared/domain/webhook-url-policy.ts';
import { checkHostAddresses } from '../../shared/outbound/webhook-post.ts';
import { getAccount } from '../../shared/store/accounts.ts';
import { DEFAULT_DELIVERIES_LIMIT, listDeliveries, requestResend } from '../../shared/store/webhook-deliveries.ts';
import { deleteEndpoint, putEndpoint } from '../../shared/store/webhook-endpoints.ts';
import { sealSecret } from '../../shared/store/webhook-secrets.ts';
import { CommandError, defineCommand, UsageError } from './command.ts';
import { printedTime } from './printed-time.ts';
import { chooseTarget } from './target.ts';
import { COMPANY_ID, companyId, positiveInteger, requiredString } from './validate.ts';

const MAX_DELIVERIES_LIMIT = 1000;

/** The local runtime's URL policy (loopback allowed) applies when the CLI works on DynamoDB Local. */
const worksLocally = (): boolean => chooseTarget().kind !== 'aws';

export const webhookSet = defineCommand({
  name: 'webhook:set',
  summary:
    "set the account's one webhook endpoint (setting again rotates the secret). Deployed stages accept only https URLs " +
    'whose host is not a private, loopback or link-local address; the local runtime also accepts http://127.0.0.1:PORT and http://localhost:PORT',
  options: {
    'company-id': COMPANY_ID,
    url: {
      type: 'string',
      placeholder: 'URL',
      required: true,
      description: 'where events are POSTed, e.g. https://example.com/webhooks',
    },
  },
  prints: 'one JSON line {"company_id":N,"url":"…","secret":"whsec_…"}; the secret is shown once.',
  input: (values) => ({ companyId: companyId(values), url: requiredString(values.url, 'url') }),
  async run(input, output) {
    const local = worksLocally();
    const policy = { allowLoopback: local || loadConfig().webhookAllowLoopback };
    const url = parseWebhookUrl(input.url, policy);
    if (!url.ok) throw new CommandError(`--url ${url.message}.`);
    const problem = await checkHostAddresses(new URL(url.value).hostname, policy);
    if (problem) throw new CommandError(`--url host ${problem}.`);
    if (!(await getAccount(input.companyId))) throw new CommandError(`No account with company_id ${input.companyId}.`);
    if (!local && !loadConfig().webhookKmsKeyId) {
      throw new CommandError(
        "Set WEBHOOK_KMS_KEY_ID to the stage's webhook KMS key (a stack output) to seal the secret.",
      );
    }
    const keyBytes = randomBytes(SECRET_BYTES);
    await putEndpoint(input.companyId, url.value, await sealSecret(input.companyId, keyBytes));
    output.line({ company_id: input.companyId, url: url.value, secret: formatSecret(keyBytes) });
  },
});

export const webhookRemove = defineCommand({
  name: 'webhook:remove',
  summary: "remove the account's webhook endpoint; pending deliveries stop",
  options: { 'company-id': COMPANY_ID },
  prints: 'one JSON line {"company_id":N,"removed":true}.',
  input: (values) => ({ companyId: companyId(values) }),
  async run(input, output) {
    if (!(await deleteEndpoint(input.companyId)))
      throw new CommandError(`No webhook endpoint for company_id ${input.companyId}.`);
    output.line({ company_id: input.companyId, removed: true });
  },
});

export const webhookDeliveries = defineCommand({
  name: 'webhook:deliveries',
  summary: "list the account's recent events and their delivery state, newest first",
  options: {
    'company-id': COMPANY_ID,
    limit: {
      type: 'string',
      placeholder: 'N',
      description: `how many (default ${DEFAULT_DELIVERIES_LIMIT}, at most ${MAX_DELIVERIES_LIMIT})`,
    },
  },
  prints:
    'one JSON line per event: event_id, type, created_at, state (pending | delivered | failed | skipped), attempts, ' +
    'last_status or last_error, last_attempt_at, next_attempt_at.',
  input: (values) => ({
    companyId: companyId(values),
    limit:
      values.limit === undefined
        ? DEFAULT_DELIVERIES_LIMIT
        : positiveInteger(values.limit, 'limit', MAX_DELIVERIES_LIMIT),
  }),
  async run(input, output) {
    for (const delivery of await listDeliveries(input.companyId, input.limit))
      output.line({
        ...delivery,
        created_at: printedTime(delivery.created_at),
        last_attempt_at: printedTime(delivery.last_attempt_at),
        next_attempt_at: printedTime(delivery.next_attempt_at),
      });
  },
});

export const webhookResend = defineCommand({
  name: 'webhook:resend',
  summary: 'deliver an event again (its delivery state starts over)',
  options: {
    'event-id': {
      type: 'string',
      placeholder: 'evt_…',
      required: true,
      description: 'the event, from webhook:deliveries',
    },
  },
  prints: 'one JSON line {"event_id":"evt_…","company_id":N,"resent":true}.',
  input(values) {
    const eventId = requiredString(values['event-id'], 'event-id');
    if (!EVENT_ID_PATTERN.test(eventId))
      throw new UsageError('--event-id must be an event id: evt_ followed by 26 characters.');
    return { eventId };
  },
  async run(input, output) {
    const owner = await requestResend(input.eventId, ulid());
    if (owner === undefined) throw new CommandError(`No event ${input.eventId} (events are kept 30 days).`);
    output.line({ event_id: input.eventId, company_id: owner, resent: true });
  },
});

export const webhookCommands = [webhookSet, webhookRemove, webhookDeliveries, webhookResend];
