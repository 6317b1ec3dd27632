/** The repository's source files as path and text, for the structure tests that read the code. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceText } from './boundary-rules.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Every JavaScript or TypeScript source under `dir` (declaration files aside), relative to the repository root.
 * Installed packages are not ours (infra/tools/node22/ holds the Node 22 runtime npm installs for the tests).
 */
export function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return /\.[cm]?[jt]s$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

export const readSource = (file: string): SourceText => ({
  path: file,
  text: readFileSync(path.join(ROOT, file), 'utf8'),
});

/** The runtime code: functions/ and shared/. */
export const runtimeSources = (): SourceText[] =>
  [...sourceFiles('functions'), ...sourceFiles('shared')].map(readSource);
