/**
 * What a person's PDF reader finds in a PDF: its text as Debian's `pdftotext` (poppler-utils) extracts it, and its
 * pages as PNG (`pdftoppm`). scripts/ensure-poppler.sh installs them when missing (CI runs it up front).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PDFTOTEXT = '/usr/bin/pdftotext';

function ensurePoppler(): void {
  if (existsSync(PDFTOTEXT) && existsSync('/usr/bin/pdftoppm')) return;
  execFileSync('bash', [new URL('../../scripts/ensure-poppler.sh', import.meta.url).pathname], {
    stdio: 'inherit',
    timeout: 540_000,
  });
}

function withPdfFile<T>(pdf: Uint8Array, use: (file: string, dir: string) => T): T {
  ensurePoppler();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
  try {
    const file = path.join(dir, 'document.pdf');
    writeFileSync(file, pdf);
    return use(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The PDF's text, page by page in reading order (`pdftotext -layout`), as UTF-8; or, with `mode` 'raw', in the order
 * it is drawn (`-raw`: every space as drawn, where -layout judges spaces by the gaps it sees between glyphs).
 */
export function pdfText(pdf: Uint8Array, mode: 'layout' | 'raw' = 'layout'): string {
  return withPdfFile(pdf, (file) =>
    execFileSync(PDFTOTEXT, [`-${mode}`, '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
  );
}

/** The PDF's number of pages. */
export function pdfPageCount(pdf: Uint8Array): number {
  return withPdfFile(pdf, (file) => {
    const info = execFileSync('/usr/bin/pdfinfo', [file], { encoding: 'utf8' });
    return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  });
}

/** Renders the PDF's first page as a PNG at `dpi` and writes it to `outFile`. */
export function firstPageAsPng(pdf: Uint8Array, outFile: string, dpi = 110): void {
  withPdfFile(pdf, (file, dir) => {
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
    const png = readdirSync(dir).find((name) => name.endsWith('.png'))!;
    execFileSync('cp', [path.join(dir, png), outFile]);
  });
}

/** The images the PDF draws (`pdfimages -list`): their width and height in pixels, page by page. */
export function pdfImages(pdf: Uint8Array): { width: number; height: number }[] {
  return withPdfFile(pdf, (file) => {
    const listing = execFileSync('/usr/bin/pdfimages', ['-list', file], { encoding: 'utf8' });
    // Two header lines; then "page num type width height …" per image (a mask has type `smask`).
    return listing
      .split('\n')
      .slice(2)
      .map((line) => line.trim().split(/\s+/))
      .filter((cells) => cells[2] === 'image')
      .map((cells) => ({ width: Number(cells[3]), height: Number(cells[4]) }));
  });
}
