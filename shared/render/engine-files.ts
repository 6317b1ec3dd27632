/**
 * Where the engines and the PDF's fonts are (docs/decisions.md "PDF: pdfkit and Noto Sans"): names shared by the
 * engines, their loader (./engines.ts) and the CDK bundling (infra/function-settings.ts), with no dependency of their own.
 */

/** The PDF engine's file name in a deployed bundle, beside `index.mjs`. */
export const PDF_ENGINE_BUNDLE_FILE = 'pdf-engine.mjs';

/** The UBL engine's file name beside a deployed bundle. */
export const UBL_ENGINE_BUNDLE_FILE = 'ubl-engine.mjs';

/** The npm package the fonts come from: Noto Sans, OFL 1.1 (embedding allowed); it draws ₦ (U+20A6). */
export const FONT_PACKAGE = '@expo-google-fonts/noto-sans';

/** The font files within FONT_PACKAGE. */
export const FONT_FILES = {
  regular: '400Regular/NotoSans_400Regular.ttf',
  bold: '700Bold/NotoSans_700Bold.ttf',
} as const;

/** Where a deployed bundle keeps the fonts: this folder beside the engine's file. */
export const BUNDLED_FONT_DIR = 'fonts';
