/** `key:create`, `key:list`, `key:revoke` (docs/accounts.md, docs/operations.md "Keys"). */
import { expiryAfterDays, isKeyUsable } from '../../shared/domain/api-key.ts';
import { getAccount } from '../../shared/store/accounts.ts';
import {
  type ApiKey,
  createKey,
  KEY_ID_PATTERN,
  listKeys,
  revokeKeyById,
  revokeKeyBySecret,
  SECRET_KEY_PATTERN,
} from '../../shared/store/api-keys.ts';
import { CommandError, defineCommand, UsageError } from './command.ts';
import { COMPANY_ID, companyId, positiveInteger } from './validate.ts';

const MAX_LABEL_LENGTH = 100;
const MAX_EXPIRY_DAYS = 3650;

function keyStatus(key: ApiKey, nowMs: number): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt !== undefined) return 'revoked';
  return isKeyUsable(key, nowMs) ? 'active' : 'expired';
}

/** What an operator sees of a key: never the secret or its hash. */
function keyLine(key: ApiKey, nowMs: number): Record<string, unknown> {
  return {
    key_id: key.keyId,
    company_id: key.companyId,
    last4: key.last4,
    label: key.label ?? null,
    created_at: key.createdAt,
    expires_at: key.expiresAt ?? null,
    revoked_at: key.revokedAt ?? null,
    status: keyStatus(key, nowMs),
  };
}

export const keyCreate = defineCommand({
  name: 'key:create',
  summary: "add a secret key to an account (shown once); the account's other keys keep working",
  options: {
    'company-id': COMPANY_ID,
    label: {
      type: 'string',
      placeholder: 'TEXT',
      description: `a note for key:list, e.g. "rotation 2026-03" (max ${MAX_LABEL_LENGTH})`,
    },
    'expires-in-days': {
      type: 'string',
      placeholder: 'D',
      description: `the key stops working D days from now (1–${MAX_EXPIRY_DAYS})`,
    },
  },
  prints:
    'one JSON line {"company_id":…,"secret_key":"sk_…","key_id":"key_…","label":…,"expires_at":"YYYY-MM-DD HH:MM:SS" (UTC) or null}.',
  input(values) {
    const label = values.label?.trim();
    if (label !== undefined && (label === '' || label.length > MAX_LABEL_LENGTH || /\p{Cc}/u.test(label))) {
      throw new UsageError(`--label must be 1 to ${MAX_LABEL_LENGTH} printable characters.`);
    }
    const days =
      values['expires-in-days'] === undefined
        ? undefined
        : positiveInteger(values['expires-in-days'], 'expires-in-days', MAX_EXPIRY_DAYS);
    return { companyId: companyId(values), label, days };
  },
  async run(input, output) {
    const expiresAt = input.days === undefined ? undefined : expiryAfterDays(Date.now(), input.days);
    const created = await createKey(input.companyId, { label: input.label, expiresAt });
    if (!created) throw new CommandError(`No account with company_id ${input.companyId}.`);
    output.line({
      company_id: input.companyId,
      secret_key: created.secretKey,
      key_id: created.key.keyId,
      label: created.key.label ?? null,
      expires_at: created.key.expiresAt ?? null,
    });
  },
});

export const keyList = defineCommand({
  name: 'key:list',
  summary: "list an account's keys (ids, last 4 characters, label, dates, status; never the secret)",
  options: { 'company-id': COMPANY_ID },
  prints:
    'one JSON line per key, oldest first: {"key_id","company_id","last4","label","created_at","expires_at","revoked_at","status"} ' +
    '(status: active, expired or revoked; times are UTC).',
  input: (values) => ({ companyId: companyId(values) }),
  async run(input, output) {
    if (!(await getAccount(input.companyId))) throw new CommandError(`No account with company_id ${input.companyId}.`);
    const now = Date.now();
    for (const key of await listKeys(input.companyId)) output.line(keyLine(key, now));
  },
});

export const keyRevoke = defineCommand({
  name: 'key:revoke',
  summary: 'revoke a key by its id or by its secret; it answers 401 within 60 s',
  options: {
    'key-id': { type: 'string', placeholder: 'key_…', description: "the key's id, from key:list" },
    key: { type: 'string', placeholder: 'sk_…', description: 'the secret key itself' },
  },
  prints: 'one JSON line {"company_id":…,"key_id":"key_…","revoked":true}. Revoking twice is harmless.',
  input(values) {
    if ((values['key-id'] === undefined) === (values.key === undefined))
      throw new UsageError('Give exactly one of --key-id and --key.');
    if (values['key-id'] !== undefined) {
      const keyId = values['key-id'].trim();
      if (!KEY_ID_PATTERN.test(keyId))
        throw new UsageError('--key-id must be a key id: key_ followed by 16 letters and digits.');
      return { keyId } as { keyId: string; key?: undefined } | { key: string; keyId?: undefined };
    }
    const key = values.key!.trim();
    if (!SECRET_KEY_PATTERN.test(key))
      throw new UsageError('--key must be a secret key: sk_ followed by 40 letters and digits.');
    return { key };
  },
  async run(input, output) {
    const revoked = input.keyId !== undefined ? await revokeKeyById(input.keyId) : await revokeKeyBySecret(input.key);
    if (!revoked)
      throw new CommandError(input.keyId !== undefined ? `No key with key_id ${input.keyId}.` : 'No such secret key.');
    output.line({ company_id: revoked.companyId, key_id: revoked.keyId, revoked: true });
  },
});

export const keyCommands = [keyCreate, keyList, keyRevoke];
