/**
 * The fonts as a PDF document draws with them (shared/render/pdf-font.ts): each glyph pdfkit is handed carries its
 * own share of the text, the shares add up to exactly the text drawn whatever was laid out before, and a character
 * the font lacks is drawn as U+FFFD. The PDFs read back with pdftotext: test/integration/hosted-pages.test.ts.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { FONT_FILES } from '../../shared/render/engine-files.ts';
import { fontPath } from '../../shared/render/pdf-engine.ts';
import { PdfFont } from '../../shared/render/pdf-font.ts';

const parsed = fontkit.create(readFileSync(fontPath(FONT_FILES.regular))) as fontkit.Font;
const font = new PdfFont(parsed);

type Drawn = { id: number; codePoints: number[] };
const glyphsOf = (document: fontkit.Font, text: string) => document.layout(text).glyphs as unknown as Drawn[];
const textOf = (glyphs: Drawn[]) => glyphs.map((glyph) => String.fromCodePoint(...glyph.codePoints)).join('');

/** Yoruba letters, tone marks and the dot below, precomposed and combining, and text the font lacks. */
const naira = fc
  .array(
    fc.constantFrom('ọ', 'ẹ', 'ṣ', 'Ọ', 'Ẹ', 'Ṣ', 'o', 'e', 's', 'a', 'fi', 'ff', ' ', '\u0300', '\u0301', '\u0323'),
  )
  .map((parts) => parts.join(''));
const anything = fc.oneof(naira, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));

describe('PdfFont', () => {
  it('draws only what the font has: a cluster it lacks is U+FFFD, a tab a space, and no glyph is the empty box', () => {
    expect(font.drawable('Wáng 王芳 👍🏽 ©️ ọ̀bẹ̀\tok')).toBe('Wáng \uFFFD\uFFFD \uFFFD ©️ ọ̀bẹ̀ ok');
    // Default-ignorable, yet drawn by fontkit as the font's empty box when the font lacks it (a property run found it).
    expect(font.drawable('a\u3164b\u200dc')).toBe('a\uFFFDb\u200dc');
    fc.assert(
      fc.property(anything, (text) => {
        const drawn = font.drawable(text);
        for (const char of drawn)
          expect(
            parsed.hasGlyphForCodePoint(char.codePointAt(0)!) || /\p{Default_Ignorable_Code_Point}/u.test(char),
          ).toBe(true);
        expect(parsed.layout(drawn).glyphs.map((glyph) => glyph.id)).not.toContain(0);
      }),
    );
  });

  it("each glyph's text adds up to exactly the text drawn, whatever any document laid out before", () => {
    expect(textOf(glyphsOf(font.forDocument(), 'ọ̀bẹ̀ ẹ̀fọ́'))).toBe('ọ̀bẹ̀ ẹ̀fọ́');
    expect(textOf(glyphsOf(font.forDocument(), 'obe efo office'))).toBe('obe efo office');
    fc.assert(
      fc.property(fc.array(anything, { minLength: 1, maxLength: 4 }), (texts) => {
        const document = font.forDocument();
        for (const text of texts) expect(textOf(glyphsOf(document, text))).toBe(font.drawable(text));
      }),
    );
  });

  it('gives an invisible character to the glyph before it, so the space after it reads back as a space', () => {
    const texts = (text: string) =>
      glyphsOf(font.forDocument(), text).map((glyph) => String.fromCodePoint(...glyph.codePoints));
    expect(texts('e\u200b 5')).toEqual(['e\u200b', ' ', '5']);
    expect(texts('s\u00ad \u2060x\ufeff y')).toEqual(['s\u00ad', ' \u2060', 'x\ufeff', ' ', 'y']);
  });

  it('gives one glyph drawn for two texts two character codes, each embedded', () => {
    const document = font.forDocument();
    const [o] = glyphsOf(document, 'o');
    const [dotted] = glyphsOf(document, 'ọ');
    const subset = document.createSubset() as unknown as { includeGlyph(key: number): number; encode(): Uint8Array };
    expect(o!.id).not.toBe(dotted!.id);
    const codes = [subset.includeGlyph(o!.id), subset.includeGlyph(dotted!.id), subset.includeGlyph(o!.id)];
    expect(codes[0]).not.toBe(codes[1]);
    expect(codes[2]).toBe(codes[0]);
    const embedded = fontkit.create(Buffer.from(subset.encode())) as fontkit.Font;
    expect(embedded.numGlyphs).toBe(Math.max(...codes) + 1);
    expect(embedded.getGlyph(codes[1]!).path.toSVG()).toBe(embedded.getGlyph(codes[0]!).path.toSVG());
  });
});
