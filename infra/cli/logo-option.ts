/**
 * `account:update --logo FILE` (docs/accounts.md "The logo"): the file is read, its format and dimensions taken from
 * its header by image-size (a maintained reader of image headers: nothing is decoded), and checked by the domain's
 * rule (PNG or JPEG, at most 100 KB, 16 to 2,000 pixels each way); `--logo=` removes the logo.
 */
import { readFileSync } from 'node:fs';
import { imageSize } from 'image-size';
import { checkLogo, type Logo, type LogoCandidate } from '../../shared/domain/logo.ts';
import { setAccountLogo } from '../../shared/store/account-logo.ts';
import { type OptionSpec, UsageError } from './command.ts';

export const LOGO_OPTION: Record<'logo', OptionSpec> = {
  logo: {
    type: 'string',
    placeholder: 'FILE',
    description:
      'a PNG or JPEG logo (at most 100 KB, 16 to 2000 pixels each way) shown on the page, the PDFs and the e-mails; ' +
      '--logo= removes it',
  },
};

/** What `--logo` asks for: a logo to set, `null` to remove it, undefined when the option is absent. */
export type LogoChange = Logo | null | undefined;

/** The logo of `--logo`'s file, checked; a usage error names what is wrong. */
export function logoChangeFrom(values: { logo?: string | boolean | undefined }): LogoChange {
  if (typeof values.logo !== 'string') return undefined;
  if (values.logo === '') return null;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(values.logo);
  } catch (error) {
    throw new UsageError(`--logo cannot read ${values.logo}: ${(error as Error).message}`);
  }
  const checked = checkLogo({ ...headerOf(bytes), bytes });
  if (!checked.ok) throw new UsageError(`--logo ${checked.message}.`);
  return checked.value;
}

/** The format and size its header declares; no format when image-size recognises none. */
function headerOf(bytes: Uint8Array): Omit<LogoCandidate, 'bytes'> {
  try {
    const { type, width, height } = imageSize(bytes);
    return { format: type, width, height };
  } catch {
    return { format: undefined, width: undefined, height: undefined };
  }
}

export async function applyLogoChange(companyId: number, change: LogoChange): Promise<void> {
  if (change !== undefined) await setAccountLogo(companyId, change ?? undefined);
}
