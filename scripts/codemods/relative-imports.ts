/**
 * One-off codemod to the project's one import style (CONTRIBUTING.md "Imports"): every import of our own
 * code is relative and names its file with the `.ts` extension. It rewrites `#shared/…` specifiers to the
 * relative path, adds the missing `.ts` to relative ones (static, dynamic, `import('…').Type`, `vi.mock`),
 * and removes the `#shared/*` mapping from package.json. Idempotent: running it twice changes nothing.
 *
 *   npx tsx scripts/codemods/relative-imports.ts          # rewrite in place, list the files changed
 *   npx tsx scripts/codemods/relative-imports.ts --check  # exit 1 if anything would change
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIRS = ['functions', 'shared', 'infra', 'test', 'bench', 'scripts'];
const ROOT_FILES = ['vitest.config.ts'];
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)(['"])(#shared\/[^'"]+|\.{1,2}\/[^'"]*)\2/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'results') out.push(...sourceFiles(full));
    } else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const isFile = (file: string) => existsSync(file) && statSync(file).isFile();

/** The relative, extension-carrying specifier for `target` (an absolute path without or with extension). */
function resolveTarget(fromFile: string, target: string): string | undefined {
  const candidates = [target, `${target}.ts`, path.join(target, 'index.ts')];
  const found = candidates.find(isFile);
  if (!found) return undefined;
  let relative = path.relative(path.dirname(fromFile), found).split(path.sep).join('/');
  if (!relative.startsWith('.')) relative = `./${relative}`;
  return relative;
}

function rewrite(fromFile: string, source: string): { text: string; unresolved: string[] } {
  const unresolved: string[] = [];
  const text = source.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
    const target = specifier.startsWith('#shared/')
      ? path.join(ROOT, 'shared', specifier.slice('#shared/'.length))
      : path.resolve(path.dirname(fromFile), specifier);
    const next = resolveTarget(fromFile, target);
    if (!next) {
      unresolved.push(specifier);
      return whole;
    }
    return `${lead}${quote}${next}${quote}`;
  });
  return { text, unresolved };
}

function main() {
  const check = process.argv.includes('--check');
  const files = [
    ...SOURCE_DIRS.flatMap((dir) => (existsSync(path.join(ROOT, dir)) ? sourceFiles(path.join(ROOT, dir)) : [])),
    ...ROOT_FILES.map((file) => path.join(ROOT, file)).filter(isFile),
  ];
  const changed: string[] = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const { text, unresolved } = rewrite(file, source);
    for (const specifier of unresolved) console.error(`${path.relative(ROOT, file)}: cannot resolve ${specifier}`);
    if (text !== source) {
      changed.push(path.relative(ROOT, file));
      if (!check) writeFileSync(file, text);
    }
  }
  const packageFile = path.join(ROOT, 'package.json');
  const pkg = JSON.parse(readFileSync(packageFile, 'utf8'));
  if (pkg.imports?.['#shared/*']) {
    changed.push('package.json');
    if (!check) {
      delete pkg.imports['#shared/*'];
      if (Object.keys(pkg.imports).length === 0) delete pkg.imports;
      writeFileSync(packageFile, `${JSON.stringify(pkg, null, 2)}\n`);
    }
  }
  for (const file of changed) console.log(file);
  if (check && changed.length > 0) process.exit(1);
}

main();
