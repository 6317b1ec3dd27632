/**
 * The fonts as one PDF document draws with them (docs/sending-invoices.md "The PDF"): the text layer — what copy,
 * search, screen readers and `pdftotext` read — is worked out from the text each document draws, never from what an
 * earlier document left in the parsed font; and a character the font lacks is drawn as U+FFFD, never as an empty box.
 *
 * Why pdfkit's own map is not used: fontkit keeps one Glyph object per glyph id for the life of a parsed font, stamped
 * with the code points of the first text that produced it, and pdfkit writes a glyph's ToUnicode entry from that
 * stamp. The engine parses the fonts once per process, so after one invoice's "ọ" — which Noto Sans draws as the glyph
 * "o" and a combining dot below — every later invoice's "o" read back as "ọ", and the dot (stamped with nothing) was
 * lost. A ToUnicode map gives each character code one text, so here each (glyph, text) pair a document draws gets a
 * code of its own: a document that draws "o" and "ọ" embeds the glyph "o" twice, once for each.
 */
import type { Font, Glyph, GlyphRun } from 'fontkit';

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });
const REPLACEMENT = '\uFFFD';
/** Zero-width controls (joiners, variation selectors): fontkit draws most as nothing, whether or not the font has them. */
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const WHITESPACE = /^\s+$/u;
/** The most grapheme clusters one glyph may stand for (a ligature such as "ffi"); beyond, see `glyphTexts`. */
const MAX_CLUSTERS_PER_GLYPH = 4;
const MAX_CACHED_PIECES = 5_000;

/** What pdfkit reads of a glyph it draws: `id` is the document's key for a (glyph, text) pair (`DocumentCodes`). */
interface DrawnGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

/** What pdfkit uses of a font subset (and the glyph list fontkit encodes it from, where a duplicate is added). */
interface FontSubset {
  includeGlyph(glyph: number): number;
  encode(): Uint8Array;
  glyphs: number[];
  cff?: unknown;
}

const codePointsOf = (text: string): number[] => Array.from(text, (char) => char.codePointAt(0)!);

/** The grapheme clusters of `text` (printable ASCII, most of an invoice, is one cluster per character). */
const clustersOf = (text: string): string[] =>
  /^[\x20-\x7e]*$/.test(text) ? text.split('') : Array.from(GRAPHEMES.segment(text), (part) => part.segment);

/**
 * fontkit draws an invisible character (a zero-width space, a soft hyphen, a word joiner) as a space glyph of no
 * width. Its text goes with the glyph before it and the glyph is dropped: a glyph of its own, before a space, made
 * text extraction lose that space ("Rice\u200b 50kg" read back as "Rice\u200b50kg"). One at the very start stays.
 */
function foldHiddenGlyphs(run: GlyphRun, texts: string[]): void {
  for (let index = run.glyphs.length - 1; index > 0; index--) {
    const text = texts[index]!;
    if (text === '' || run.positions[index]!.xAdvance !== 0 || !Array.from(text).every((c) => IGNORABLE.test(c)))
      continue;
    texts[index - 1] += text;
    texts.splice(index, 1);
    run.glyphs.splice(index, 1);
    run.positions.splice(index, 1);
  }
}

/** One parsed font, shared by every document a process renders; see `forDocument`. */
export class PdfFont {
  /** The glyph ids of a short piece of text shaped alone: pure, so shared by all documents. */
  private readonly pieceGlyphs = new Map<string, readonly number[]>();

  constructor(readonly font: Font) {}

  /** `text` as this font draws it: a grapheme cluster it has no glyph for becomes U+FFFD (whitespace: a space). */
  drawable(text: string): string {
    if (this.covers(text)) return text;
    let drawn = '';
    for (const { segment } of GRAPHEMES.segment(text))
      drawn += this.covers(segment) ? segment : WHITESPACE.test(segment) ? ' ' : REPLACEMENT;
    return drawn;
  }

  private covers(text: string): boolean {
    let lacksIgnorable = false;
    for (const char of text) {
      if (this.font.hasGlyphForCodePoint(char.codePointAt(0)!)) continue;
      if (!IGNORABLE.test(char)) return false;
      lacksIgnorable = true;
    }
    // fontkit hides most default-ignorable characters a font lacks, not all: U+3164 HANGUL FILLER is the empty box.
    return !lacksIgnorable || !this.font.layout(text).glyphs.some((glyph) => glyph.id === 0);
  }

  /**
   * The font as one document uses it, to register with pdfkit in place of the parsed font: its `layout` draws
   * `drawable(text)` and hands pdfkit glyphs that carry their own share of that text, and its subsets give each
   * (glyph, text) pair its own character code.
   */
  forDocument(): Font {
    const codes = new DocumentCodes();
    const layout = (text: string, features?: string[] | Record<string, boolean>): GlyphRun => {
      const drawn = this.drawable(text);
      const run = this.font.layout(drawn, features);
      const texts = this.glyphTexts(
        drawn,
        run.glyphs.map((glyph) => glyph.id),
      );
      foldHiddenGlyphs(run, texts);
      const glyphs = run.glyphs.map((glyph, index) => codes.glyph(glyph, texts[index]!));
      (run as unknown as { glyphs: DrawnGlyph[] }).glyphs = glyphs;
      return run;
    };
    const createSubset = () => codes.subset(this.font.createSubset() as unknown as FontSubset);
    return new Proxy(this.font, {
      get: (font, key) => (key === 'layout' ? layout : key === 'createSubset' ? createSubset : Reflect.get(font, key)),
    });
  }

  /**
   * Each glyph's share of `text` (the glyphs of one shaped run): a grapheme cluster's text goes with the first glyph
   * drawn for it, and '' with the rest (the marks stacked on it), so the shares add up to `text` exactly. Clusters are
   * matched to glyphs by shaping them alone; where the shaping joined more clusters than that allows, the rest of the
   * text goes with the glyph reached.
   */
  private glyphTexts(text: string, ids: readonly number[]): string[] {
    const clusters = clustersOf(text);
    const texts = ids.map(() => '');
    let glyph = 0;
    let cluster = 0;
    while (cluster < clusters.length && glyph < ids.length) {
      const span = this.nextSpan(clusters, cluster, ids, glyph);
      if (!span) break;
      texts[glyph] += span.text;
      glyph += span.glyphs;
      cluster += span.clusters;
    }
    const rest = clusters.slice(cluster).join('');
    if (rest && ids.length > 0) texts[Math.min(glyph, ids.length - 1)] += rest;
    return texts;
  }

  /** The fewest clusters from `cluster` on whose glyphs, shaped alone, are the run's glyphs from `glyph` on. */
  private nextSpan(clusters: readonly string[], cluster: number, ids: readonly number[], glyph: number) {
    const last = Math.min(clusters.length, cluster + MAX_CLUSTERS_PER_GLYPH);
    for (let end = cluster + 1; end <= last; end++) {
      const text = clusters.slice(cluster, end).join('');
      const own = this.glyphIdsOf(text);
      if (own.length > 0 && own.every((id, index) => ids[glyph + index] === id))
        return { text, glyphs: own.length, clusters: end - cluster };
    }
    return undefined;
  }

  private glyphIdsOf(piece: string): readonly number[] {
    let ids = this.pieceGlyphs.get(piece);
    if (!ids) {
      if (this.pieceGlyphs.size >= MAX_CACHED_PIECES) this.pieceGlyphs.clear();
      ids = this.font.layout(piece).glyphs.map((glyph) => glyph.id);
      this.pieceGlyphs.set(piece, ids);
    }
    return ids;
  }
}

/** One document's character codes: one per (glyph, text) pair it draws. */
class DocumentCodes {
  private readonly keys = new Map<string, number>();
  private readonly pairs: { glyphId: number; text: string }[] = [];

  /** The glyph as pdfkit is given it: keyed by the pair, with the text its character code maps to. */
  glyph(glyph: Glyph, text: string): DrawnGlyph {
    const name = `${glyph.id} ${text}`;
    let key = this.keys.get(name);
    if (key === undefined) {
      key = this.pairs.push({ glyphId: glyph.id, text }) - 1;
      this.keys.set(name, key);
    }
    return { id: key, advanceWidth: glyph.advanceWidth, codePoints: codePointsOf(text) };
  }

  /**
   * The document's subset of the font, as pdfkit uses it: `includeGlyph(key)` answers the pair's character code. The
   * first pair of a glyph includes it as fontkit does; each further pair embeds another copy of it (fontkit's subset
   * encodes its glyph list in order, copies included, and a composite glyph's parts only once).
   */
  subset(subset: FontSubset): Pick<FontSubset, 'includeGlyph' | 'encode' | 'cff'> {
    const codes = new Map<number, number>();
    const embedded = new Set<number>([0]); // a fontkit subset always holds the missing glyph, at code 0
    const includeGlyph = (key: number): number => {
      let code = codes.get(key);
      if (code === undefined) {
        const { glyphId } = this.pairs[key]!;
        code = embedded.has(glyphId) ? subset.glyphs.push(glyphId) - 1 : subset.includeGlyph(glyphId);
        embedded.add(glyphId);
        codes.set(key, code);
      }
      return code;
    };
    return { includeGlyph, encode: () => subset.encode(), cff: subset.cff };
  }
}
