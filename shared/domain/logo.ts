/**
 * The merchant's logo (docs/accounts.md "The logo"), pure: which images are accepted — PNG or JPEG, at most 100 KB,
 * between 16 and 2,000 pixels each way — and how a client's document carries one (its bytes, type and size; the page
 * shows it as a `data:` URL, the PDF draws it, the e-mail attaches it inline).
 */
import { fail, ok, type ParseResult } from './result.ts';

export const LOGO_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoMediaType = (typeof LOGO_MEDIA_TYPES)[number];

export const MAX_LOGO_BYTES = 100 * 1024;
export const MIN_LOGO_PIXELS = 16;
export const MAX_LOGO_PIXELS = 2000;

export interface Logo {
  mediaType: LogoMediaType;
  width: number;
  height: number;
  bytes: Uint8Array;
}

/** What a file was found to be: its format as read from its header (`png`, `jpg`, …) and its size. */
export interface LogoCandidate {
  format: string | undefined;
  width: number | undefined;
  height: number | undefined;
  bytes: Uint8Array;
}

const MEDIA_TYPE_OF: Record<string, LogoMediaType> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

/** The logo, or why the file is refused. */
export function checkLogo(candidate: LogoCandidate): ParseResult<Logo> {
  const mediaType = candidate.format === undefined ? undefined : MEDIA_TYPE_OF[candidate.format];
  if (!mediaType) return fail(`must be a PNG or JPEG image (this file is ${candidate.format ?? 'not an image'})`);
  if (candidate.bytes.byteLength > MAX_LOGO_BYTES)
    return fail(
      `must be at most ${MAX_LOGO_BYTES / 1024} KB (this file is ${Math.ceil(candidate.bytes.byteLength / 1024)} KB)`,
    );
  const { width, height } = candidate;
  const fits = (side: number | undefined) =>
    side !== undefined && Number.isInteger(side) && side >= MIN_LOGO_PIXELS && side <= MAX_LOGO_PIXELS;
  if (!fits(width) || !fits(height))
    return fail(
      `must be ${MIN_LOGO_PIXELS} to ${MAX_LOGO_PIXELS} pixels wide and high (this image is ${width ?? '?'}×${height ?? '?'})`,
    );
  return ok({ mediaType, width: width!, height: height!, bytes: candidate.bytes });
}

/** The content id the e-mails' HTML names the logo by (`<img src="cid:…">`), attached inline. */
export const LOGO_CID = 'logo@invoice';

/** The logo as a `data:` URL (the hosted page's `<img>`; its CSP allows `data:` images and nothing else). */
export const logoDataUrl = (logo: Pick<Logo, 'mediaType' | 'bytes'>): string =>
  `data:${logo.mediaType};base64,${Buffer.from(logo.bytes).toString('base64')}`;
