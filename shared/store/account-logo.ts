/**
 * The merchant's logo in the store (docs/accounts.md "The logo"; docs/data-design.md): one item beside the account
 * item (`ACCOUNT#<id>` / `LOGO`), its bytes a binary attribute. Apart from the account item so that authentication,
 * which reads the account on every keyed request, never reads up to 100 KB it does not need; the documents a client
 * reads (the page, the PDFs, the e-mails) read it with the invoice.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { LOGO_MEDIA_TYPES, type Logo, type LogoMediaType } from '../domain/logo.ts';
import { itemOf } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { type Key, keys } from './keys.ts';

export const accountLogoKey = (companyId: number): Key => keys.accountLogo(companyId);

const isMediaType = (value: unknown): value is LogoMediaType => LOGO_MEDIA_TYPES.some((type) => type === value);

export function logoFromItem(item: Item | undefined): Logo | undefined {
  if (!item || !isMediaType(item.media_type) || !(item.image instanceof Uint8Array)) return undefined;
  return { mediaType: item.media_type, width: Number(item.width), height: Number(item.height), bytes: item.image };
}

/** The logo among the items of a BatchGetItem that asked for `accountLogoKey(companyId)`. */
export const logoFrom = (items: Map<string, Item>, companyId: number): Logo | undefined =>
  logoFromItem(itemOf(items, accountLogoKey(companyId)));

export async function getAccountLogo(companyId: number): Promise<Logo | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: accountLogoKey(companyId), ConsistentRead: true }),
  );
  return logoFromItem(out.Item);
}

/** Sets (a logo) or removes (undefined) the account's logo. */
export async function setAccountLogo(companyId: number, logo: Logo | undefined): Promise<void> {
  const Key = accountLogoKey(companyId);
  if (!logo) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key }));
    return;
  }
  const Item = {
    ...Key,
    entity: 'account_logo',
    company_id: companyId,
    media_type: logo.mediaType,
    width: logo.width,
    height: logo.height,
    image: logo.bytes,
    updated_at: new Date().toISOString(),
  };
  await documentClient().send(new PutCommand({ TableName: tableName(), Item }));
}
