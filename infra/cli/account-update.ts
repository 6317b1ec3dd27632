/**
 * `account:update` (docs/accounts.md "The merchant's profile"): the name, profile, logo, reminder schedule, VAT setting
 * and invoice prefix (docs/tax.md) of an account.
 */
import {
  MAX_BUSINESS_NAME_LENGTH,
  PROFILE_FIELDS,
  type ProfileField,
  parseProfileValue,
  parseReminderOffsets,
} from '../../shared/domain/merchant-profile.ts';
import type { AccountChanges } from '../../shared/store/account-profile.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { wakeOpenInvoices } from '../../shared/store/wake-index.ts';
import { accountLine } from './account-line.ts';
import { CommandError, defineCommand, type OptionSpec, UsageError } from './command.ts';
import { applyLogoChange, LOGO_OPTION, type LogoChange, logoChangeFrom } from './logo-option.ts';
import {
  applyPaystackChanges,
  PAYSTACK_OPTIONS,
  type PaystackChanges,
  paystackChangesFrom,
} from './paystack-options.ts';
import { TAX_OPTIONS, taxChangesFrom } from './tax-options.ts';
import { COMPANY_ID, companyId } from './validate.ts';

/** The option of each profile field, e.g. `--tax-id` for `taxId`. */
const optionOf = (field: ProfileField): string => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const PROFILE_HELP: Record<ProfileField, string> = {
  email: 'reply-to e-mail address of invoice e-mails',
  phone: 'telephone number shown on invoices',
  address: 'postal address shown on invoices ("\\n" in the value starts a new line)',
  taxId: 'tax identification number shown on invoices',
  bankName: 'payment instructions: the bank',
  accountName: 'payment instructions: the account name',
  accountNumber: 'payment instructions: the account number',
};

const profileOptions: Record<string, OptionSpec> = Object.fromEntries(
  PROFILE_FIELDS.map((field) => [
    optionOf(field),
    { type: 'string', placeholder: 'TEXT', description: `${PROFILE_HELP[field]}; an empty value clears it` },
  ]),
);

function profileChanges(values: Record<string, string | boolean | undefined>): AccountChanges['profile'] {
  const changes: NonNullable<AccountChanges['profile']> = {};
  for (const field of PROFILE_FIELDS) {
    const raw = values[optionOf(field)];
    if (typeof raw !== 'string') continue;
    const parsed = parseProfileValue(field, field === 'address' ? raw.replace(/\\n/g, '\n') : raw);
    if (!parsed.ok) throw new UsageError(`--${optionOf(field)} ${parsed.message}.`);
    changes[field] = parsed.value;
  }
  return changes;
}

function changesFrom(
  values: Record<string, string | boolean | undefined>,
  paystack: PaystackChanges | undefined,
  logo: LogoChange,
): AccountChanges {
  const changes: AccountChanges = { profile: profileChanges(values), ...taxChangesFrom(values) };
  if (typeof values.name === 'string') {
    const name = values.name.replace(/\s+/g, ' ').trim();
    if (name === '') throw new UsageError('--name must not be empty.');
    if (name.length > MAX_BUSINESS_NAME_LENGTH)
      throw new UsageError(`--name must be at most ${MAX_BUSINESS_NAME_LENGTH} characters.`);
    changes.name = name;
  }
  if (typeof values['send-receipts'] === 'string') changes.sendReceipts = sendReceiptsFrom(values['send-receipts']);
  if (typeof values.reminders === 'string') {
    const parsed = parseReminderOffsets(values.reminders);
    if (!parsed.ok) throw new UsageError(`--reminders ${parsed.message}.`);
    changes.reminderOffsets = parsed.value;
  }
  const changesSomething =
    changes.name !== undefined ||
    changes.reminderOffsets !== undefined ||
    changes.vatMode !== undefined ||
    changes.vatRateUnits !== undefined ||
    changes.invoicePrefix !== undefined ||
    changes.sendReceipts !== undefined ||
    changes.einvoiceServiceId !== undefined ||
    Object.keys(changes.profile ?? {}).length > 0 ||
    paystack !== undefined ||
    logo !== undefined;
  if (!changesSomething)
    throw new UsageError(
      'Nothing to change: give --name, a profile option, --reminders, --send-receipts, --logo, --vat, --vat-rate, --invoice-prefix, --einvoice-service-id or a Paystack option.',
    );
  return changes;
}

function sendReceiptsFrom(value: string): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError('--send-receipts must be true or false.');
}

export const accountUpdate = defineCommand({
  name: 'account:update',
  summary:
    "change an account's name, profile (what its invoices show), reminder schedule, receipt e-mails, VAT, invoice prefix, e-invoicing service id or Paystack connection",
  options: {
    'company-id': COMPANY_ID,
    name: { type: 'string', placeholder: 'TEXT', description: 'the business name invoices are from' },
    ...profileOptions,
    reminders: {
      type: 'string',
      placeholder: 'DAYS',
      description:
        'reminder days relative to the due date, e.g. --reminders=-3,0,7,14 (-365..365, at most 10); --reminders= clears',
    },
    ...LOGO_OPTION,
    ...TAX_OPTIONS,
    'send-receipts': {
      type: 'string',
      placeholder: 'true|false',
      description:
        'e-mail the client a receipt for every recorded payment, manual or online (default false; needs the stage’s sender)',
    },
    ...PAYSTACK_OPTIONS,
  },
  prints: 'one JSON line describing the account, as account:list does.',
  input: (values) => {
    const paystack = paystackChangesFrom(values);
    const logo = logoChangeFrom(values);
    return { companyId: companyId(values), changes: changesFrom(values, paystack, logo), paystack, logo };
  },
  async run(input, output) {
    const account = await updateAccount(input.companyId, input.changes);
    if (!account) throw new CommandError(`No account with company_id ${input.companyId}.`);
    // A schedule set later applies to existing invoices: the next sweep looks at each open one (docs/accounts.md).
    if (input.changes.reminderOffsets !== undefined) await wakeOpenInvoices(input.companyId);
    await applyLogoChange(input.companyId, input.logo);
    const connection = await applyPaystackChanges(input.companyId, input.paystack);
    output.line(accountLine(account, connection));
  },
});
