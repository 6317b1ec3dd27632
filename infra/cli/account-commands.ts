/** `account:create`, `account:list`, `account:disable`, `account:enable` (docs/accounts.md, docs/operations.md). */
import { isValidTimeZone } from '../../shared/domain/dates.ts';
import { createAccount, listAccounts, setAccountDisabled } from '../../shared/store/accounts.ts';
import { readPaystackConnection } from '../../shared/store/paystack-connections.ts';
import { ACCOUNT_LINE_KEYS, accountLine } from './account-line.ts';
import { accountUpdate } from './account-update.ts';
import { CommandError, defineCommand, UsageError } from './command.ts';
import { COMPANY_ID, companyId, requiredString } from './validate.ts';

const MAX_NAME_LENGTH = 500;

export const accountCreate = defineCommand({
  name: 'account:create',
  summary: 'create an account and its first secret key (shown once)',
  options: {
    name: { type: 'string', placeholder: 'TEXT', required: true, description: 'the business name' },
    currency: { type: 'string', placeholder: 'CODE', description: 'ISO 4217 currency (default NGN)' },
    'time-zone': { type: 'string', placeholder: 'ZONE', description: 'IANA time zone (default Africa/Lagos)' },
    'tokenization-enabled': { type: 'boolean', description: 'allow card tokenization' },
  },
  prints: 'one JSON line {"company_id":…,"secret_key":"sk_…","key_id":"key_…"}.',
  input(values) {
    const name = requiredString(values.name, 'name');
    if (name.length > MAX_NAME_LENGTH) throw new UsageError(`--name must be at most ${MAX_NAME_LENGTH} characters.`);
    const input: { name: string; currency?: string; timeZone?: string; tokenizationEnabled?: boolean } = { name };
    if (values.currency !== undefined) {
      const currency = values.currency.trim().toUpperCase();
      if (!/^[A-Z]{3}$/.test(currency))
        throw new UsageError('--currency must be a three-letter ISO 4217 code such as NGN.');
      input.currency = currency;
    }
    if (values['time-zone'] !== undefined) {
      const timeZone = values['time-zone'].trim();
      if (!isValidTimeZone(timeZone))
        throw new UsageError('--time-zone must be an IANA time zone such as Africa/Lagos.');
      input.timeZone = timeZone;
    }
    if (values['tokenization-enabled'] === true) input.tokenizationEnabled = true;
    return input;
  },
  async run(input, output) {
    const { account, secretKey, keyId } = await createAccount(input);
    output.line({ company_id: account.companyId, secret_key: secretKey, key_id: keyId });
  },
});

export const accountList = defineCommand({
  name: 'account:list',
  summary: 'list every account, one JSON line each',
  options: {},
  prints: `one JSON line per account: ${ACCOUNT_LINE_KEYS}.`,
  input: () => ({}),
  async run(_input, output) {
    for await (const account of listAccounts())
      output.line(accountLine(account, await readPaystackConnection(account.companyId)));
  },
});

function disableCommand(name: 'account:disable' | 'account:enable', disabled: boolean) {
  return defineCommand({
    name,
    summary: disabled
      ? 'disable an account: all its keys answer 401 within 60 s (data is kept)'
      : 'enable a disabled account: its unrevoked, unexpired keys work again within 60 s',
    options: { 'company-id': COMPANY_ID },
    prints: 'one JSON line describing the account, as account:list does.',
    input: (values) => ({ companyId: companyId(values) }),
    async run(input, output) {
      const account = await setAccountDisabled(input.companyId, disabled);
      if (!account) throw new CommandError(`No account with company_id ${input.companyId}.`);
      output.line(accountLine(account, await readPaystackConnection(account.companyId)));
    },
  });
}

export const accountDisable = disableCommand('account:disable', true);
export const accountEnable = disableCommand('account:enable', false);

export const accountCommands = [accountCreate, accountList, accountUpdate, accountDisable, accountEnable];
