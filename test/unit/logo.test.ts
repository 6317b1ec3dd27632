/** docs/accounts.md "The logo": which images are accepted, as `account:update --logo FILE` reads them. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logoChangeFrom } from '../../infra/cli/logo-option.ts';
import { checkLogo, logoDataUrl, MAX_LOGO_BYTES } from '../../shared/domain/logo.ts';
import { solidPng } from '../support/png.ts';

const dir = mkdtempSync(join(tmpdir(), 'logo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** The start of a baseline JPEG: SOI, a JFIF APP0 segment, then an SOF0 segment declaring `width` × `height`. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(9), Buffer.from([0xff, 0xd9])]);
}

describe('checkLogo', () => {
  const bytes = new Uint8Array(10);
  it('accepts a PNG or a JPEG of 16 to 2000 pixels each way, at most 100 KB', () => {
    expect(checkLogo({ format: 'png', width: 16, height: 2000, bytes })).toMatchObject({
      ok: true,
      value: { mediaType: 'image/png', width: 16, height: 2000 },
    });
    expect(checkLogo({ format: 'jpg', width: 300, height: 80, bytes: new Uint8Array(MAX_LOGO_BYTES) })).toMatchObject({
      ok: true,
      value: { mediaType: 'image/jpeg' },
    });
  });

  it.each([
    [{ format: 'gif', width: 100, height: 100 }, /PNG or JPEG .*gif/],
    [{ format: undefined, width: undefined, height: undefined }, /not an image/],
    [{ format: 'png', width: 15, height: 100 }, /16 to 2000 pixels .*15×100/],
    [{ format: 'png', width: 100, height: 2001 }, /16 to 2000 pixels/],
  ])('refuses %o', (candidate, message) => {
    const result = checkLogo({ ...candidate, bytes });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('refuses a file over 100 KB, saying its size', () => {
    const result = checkLogo({ format: 'png', width: 100, height: 100, bytes: new Uint8Array(MAX_LOGO_BYTES + 1) });
    expect(result).toEqual({ ok: false, message: 'must be at most 100 KB (this file is 101 KB)' });
  });

  it('gives the page a data: URL of the bytes', () => {
    expect(logoDataUrl({ mediaType: 'image/png', bytes: new Uint8Array([1, 2, 3]) })).toBe(
      'data:image/png;base64,AQID',
    );
  });
});

describe('account:update --logo FILE', () => {
  it("reads the file's format and dimensions from its header", () => {
    const png = solidPng(120, 40);
    const logo = logoChangeFrom({ logo: file('logo.png', png) });
    expect(logo).toMatchObject({ mediaType: 'image/png', width: 120, height: 40 });
    expect(Buffer.from(logo!.bytes).equals(png)).toBe(true);
    expect(logoChangeFrom({ logo: file('logo.jpg', jpegHeader(640, 200)) })).toMatchObject({
      mediaType: 'image/jpeg',
      width: 640,
      height: 200,
    });
  });

  it('removes the logo with --logo= and leaves it alone without the option', () => {
    expect(logoChangeFrom({ logo: '' })).toBeNull();
    expect(logoChangeFrom({})).toBeUndefined();
  });

  it.each([
    ['a text file', () => file('notes.txt', Buffer.from('not an image')), /--logo must be a PNG or JPEG/],
    ['a PNG over 100 KB', () => file('big.png', solidPng(100, 100, undefined, 110 * 1024)), /at most 100 KB/],
    ['a PNG 3000 pixels wide', () => file('wide.png', solidPng(3000, 20)), /16 to 2000 pixels/],
    ['a missing file', () => join(dir, 'none.png'), /--logo cannot read/],
  ])('refuses %s with a usage error', (_name, path, message) => {
    expect(() => logoChangeFrom({ logo: path() })).toThrow(message);
  });
});
