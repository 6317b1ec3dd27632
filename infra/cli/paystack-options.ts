/**
 * `account:update`'s Paystack options (docs/getting-paid-online.md "Connecting Paystack"): the secret key (empty:
 * disconnect) and the four fee settings. Parsed without a database; applied after the account's own changes.
 */
import { loadConfig } from '../../shared/config.ts';
import {
  applyFeeSettings,
  type FeeSettingsInput,
  parsePaystackSecretKey,
} from '../../shared/domain/paystack-connection.ts';
import {
  connectPaystack,
  disconnectPaystack,
  type PaystackConnection,
  readPaystackConnection,
  setPaystackFees,
  setPaystackPreferredBank,
} from '../../shared/store/paystack-connections.ts';
import { CommandError, type OptionSpec, UsageError } from './command.ts';
import { chooseTarget } from './target.ts';

export const PAYSTACK_OPTIONS: Record<string, OptionSpec> = {
  'paystack-secret-key': {
    type: 'string',
    placeholder: 'sk_…',
    description:
      'connect Paystack with this secret key (test or live; stored sealed, shown as last 4); empty disconnects',
  },
  'paystack-fee-percent': { type: 'string', placeholder: 'PERCENT', description: 'Paystack fee percent (default 1.5)' },
  'paystack-fee-flat': { type: 'string', placeholder: 'NAIRA', description: 'Paystack flat fee (default 100)' },
  'paystack-fee-flat-from': {
    type: 'string',
    placeholder: 'NAIRA',
    description: 'the smallest charge the flat fee applies to (default 2500)',
  },
  'paystack-fee-cap': { type: 'string', placeholder: 'NAIRA', description: 'the most a fee can be (default 2000)' },
  'paystack-preferred-bank': {
    type: 'string',
    placeholder: 'SLUG',
    description: "the bank clients' virtual accounts are opened at (default wema-bank)",
  },
};

/** A Paystack bank slug as its dedicated-account API takes them (`wema-bank`, `titan-paystack`). */
const BANK_SLUG = /^[a-z0-9][a-z0-9-]{0,49}$/;

/** What the Paystack options ask: a key to connect with (`''`: disconnect), and fee figures to set. */
export interface PaystackChanges {
  secretKey?: string;
  fees?: FeeSettingsInput;
  preferredBank?: string;
}

const FEE_OPTIONS = {
  percent: 'paystack-fee-percent',
  flat: 'paystack-fee-flat',
  flatFrom: 'paystack-fee-flat-from',
  cap: 'paystack-fee-cap',
} as const;

export function paystackChangesFrom(values: Record<string, string | boolean | undefined>): PaystackChanges | undefined {
  const changes: PaystackChanges = {};
  const key = values['paystack-secret-key'];
  if (typeof key === 'string') {
    if (key.trim() === '') changes.secretKey = '';
    else {
      const parsed = parsePaystackSecretKey(key);
      if (!parsed.ok) throw new UsageError(`--paystack-secret-key ${parsed.message}.`);
      changes.secretKey = parsed.value;
    }
  }
  const fees: FeeSettingsInput = {};
  for (const [field, option] of Object.entries(FEE_OPTIONS) as [keyof FeeSettingsInput, string][]) {
    const value = values[option];
    if (typeof value === 'string') fees[field] = value;
  }
  if (Object.keys(fees).length > 0) {
    const checked = applyFeeSettings({ percentBasisPoints: 0, flatKobo: 0, flatFromKobo: 0, capKobo: 0 }, fees);
    if (!checked.ok) throw new UsageError(`--${FEE_OPTIONS[checked.field]} ${checked.message}.`);
    changes.fees = fees;
  }
  const bank = values['paystack-preferred-bank'];
  if (typeof bank === 'string') {
    if (!BANK_SLUG.test(bank)) throw new UsageError('--paystack-preferred-bank must be a bank slug such as wema-bank.');
    changes.preferredBank = bank;
  }
  return changes.secretKey !== undefined || changes.fees || changes.preferredBank ? changes : undefined;
}

/** Applies the changes (fees first, then the key); the connection as it is afterwards. */
export async function applyPaystackChanges(
  companyId: number,
  changes: PaystackChanges | undefined,
): Promise<PaystackConnection> {
  if (changes?.fees) {
    const current = await readPaystackConnection(companyId);
    const next = applyFeeSettings(current.fees, changes.fees);
    if (!next.ok) throw new UsageError(`--${FEE_OPTIONS[next.field]} ${next.message}.`);
    await setPaystackFees(companyId, next.value);
  }
  if (changes?.preferredBank) await setPaystackPreferredBank(companyId, changes.preferredBank);
  if (changes?.secretKey === '') return disconnectPaystack(companyId);
  if (changes?.secretKey !== undefined) {
    if (chooseTarget().kind === 'aws' && !loadConfig().paystackKmsKeyId)
      throw new CommandError(
        "Set PAYSTACK_KMS_KEY_ID to the stage's Paystack KMS key (the stack output PaystackKmsKeyId) to seal the key.",
      );
    const connected = await connectPaystack(companyId, changes.secretKey);
    if (!connected) throw new CommandError(`No account with company_id ${companyId}.`);
    return connected;
  }
  return readPaystackConnection(companyId);
}
