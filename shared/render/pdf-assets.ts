/**
 * Where the PDF engine and its fonts are (docs/decisions.md "PDF: pdfkit and Noto Sans"): names shared by the engine,
 * its loader and the CDK bundling (infra/function-settings.ts `PDF_BUNDLING`), with no dependency of their own.
 */

/** The engine's file name in a deployed bundle, beside `index.mjs`. */
export const PDF_ENGINE_BUNDLE_FILE = 'invoice-pdf-engine.mjs';

/** The credit note's PDF engine (./credit-note-pdf-engine.ts) beside a deployed invoice function's bundle. */
export const CREDIT_NOTE_PDF_ENGINE_BUNDLE_FILE = 'credit-note-pdf-engine.mjs';

/** The npm package the fonts come from: Noto Sans, OFL 1.1 (embedding allowed); it draws ₦ (U+20A6). */
export const FONT_PACKAGE = '@expo-google-fonts/noto-sans';

/** The font files within FONT_PACKAGE. */
export const FONT_FILES = {
  regular: '400Regular/NotoSans_400Regular.ttf',
  bold: '700Bold/NotoSans_700Bold.ttf',
} as const;

/** Where a deployed bundle keeps the fonts: this folder beside the engine's file. */
export const BUNDLED_FONT_DIR = 'fonts';
